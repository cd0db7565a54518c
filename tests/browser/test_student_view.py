"""What a student sees: each released lesson opened in real JupyterLab, in real Chromium.

A person's path through the lesson: open it, Run > Run All Cells from the menu bar, read the
outputs. The lesson must run to the end without a traceback, draw its pictures, show its widgets
(so the widget extension works in this JupyterLab), say "Not attempted yet" for untouched stubs,
and offer nbgrader's Validate button. In lesson 2 the test then types a right answer into one
exercise and sees its self-check say "Correct", moves the slider of the backward() step-through
and sees the drawing change, types an expression into the graph explorer, and adds a cell of its own
that raises one of autograd's errors, which the lesson explains under PyTorch's message.

Screenshots go to test-artifacts/screenshots/ so a person can check what the assertions claim.
"""
import glob
import os
import re
import time
import warnings

import pytest

from .chromium import launched, require_browser
from .jupyterlab_server import jupyterlab, tail

pytestmark = pytest.mark.browser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
RELEASE = os.path.join(ROOT, "release")
SCREENSHOTS = os.path.join(ROOT, "test-artifacts", "screenshots")
NOTEBOOKS = sorted(os.path.relpath(path, RELEASE) for path in glob.glob(os.path.join(RELEASE, "*", "*.ipynb")))

require_browser()
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError  # noqa: E402
from playwright.sync_api import expect  # noqa: E402

KERNEL_TIMEOUT_MS = 90_000
RUN_ALL_TIMEOUT_S = 240
STALL_S = 60  # the slowest cell of a lesson takes a few seconds
MAX_SCREENSHOT_HEIGHT = 16_000  # pixels; Chromium cannot capture much taller pages in one piece

# The notebook's own toolbar says which kernel it has and whether it is busy. Right after the page
# loads the indicator says "idle" while the toolbar still reads "No Kernel", so both are needed.
KERNEL_IDLE = """() => {
    const toolbar = document.querySelector('.jp-NotebookPanel-toolbar');
    const name = toolbar?.querySelector('.jp-KernelName')?.textContent.trim();
    const status = toolbar?.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status;
    return !!name && name !== 'No Kernel' && status === 'idle';
}"""
# Finished: the kernel is idle, nothing is queued ([*]) and something ran. An error stops Run All
# and resets the queued prompts to [ ], so this also ends a run that broke half-way.
RUN_FINISHED = """() => {
    const prompts = Array.from(document.querySelectorAll('.jp-Notebook .jp-CodeCell .jp-InputPrompt'))
        .map(p => p.textContent.trim());
    return (""" + KERNEL_IDLE + """)() && !prompts.some(p => p.includes('*'))
        && prompts.some(p => /\\[\\d+\\]/.test(p));
}"""
# Error outputs and stream stderr render identically in JupyterLab 4 (a .jp-RenderedText with
# data-mime-type="application/vnd.jupyter.stderr"), so the output type comes from the notebook
# model, which `expose_app_in_browser` makes reachable as window.jupyterapp.
ERROR_OUTPUTS = """() => {
    const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
    const errors = [];
    for (let i = 0; i < cells.length; i++) {
        const cell = cells.get(i);
        if (cell.type !== 'code') continue;
        for (let j = 0; j < cell.outputs.length; j++) {
            const output = cell.outputs.get(j).toJSON();
            if (output.output_type === 'error')
                errors.push({cell: i, source: cell.sharedModel.getSource().slice(0, 200),
                             error: output.ename + ': ' + output.evalue});
        }
    }
    return errors;
}"""
# Where a run stands: every code cell's prompt ("[*]" queued or running, "[ ]" never run), the
# kernel's name and status, and any dialog (e.g. "Kernel Restarting") over the notebook.
RUN_STATE = """() => {
    const toolbar = document.querySelector('.jp-NotebookPanel-toolbar');
    const prompts = {ran: 0, queued: [], not_run: []};
    document.querySelectorAll('.jp-Notebook .jp-Cell').forEach((cell, i) => {
        const prompt = cell.querySelector('.jp-CodeCell .jp-InputPrompt')?.textContent.trim();
        if (prompt === undefined) return;
        if (prompt.includes('*')) prompts.queued.push(i);
        else if (/\\[\\d+\\]/.test(prompt)) prompts.ran += 1;
        else prompts.not_run.push(i);
    });
    return {kernel: toolbar?.querySelector('.jp-KernelName')?.textContent.trim() ?? null,
            status: toolbar?.querySelector('.jp-Notebook-ExecutionIndicator')?.dataset.status ?? null,
            prompts: prompts,
            first_queued: Array.from(Array.from(document.querySelectorAll('.jp-Notebook .jp-Cell'))
                .find(cell => cell.querySelector('.jp-CodeCell .jp-InputPrompt')?.textContent.includes('*'))
                ?.querySelectorAll('.jp-InputArea-editor .cm-line') ?? []).map(line => line.textContent).join('\\n').slice(0, 300),
            dialogs: Array.from(document.querySelectorAll('.jp-Dialog')).map(d => d.textContent.trim().slice(0, 300))};
}"""
BELOW_LAST_CELL = """e => {
    e.scrollTo(0, 0);
    const cells = e.querySelectorAll('.jp-Cell');
    const last = cells[cells.length - 1].getBoundingClientRect().bottom;
    return Math.ceil(last + 16 - e.getBoundingClientRect().bottom);
}"""
# Read from the notebook model, not the prompts: a cell whose input is collapsed (a quick
# check) shows no prompt at all.
UNEXECUTED_CELLS = """() => {
    const cells = window.jupyterapp.shell.currentWidget.content.model.cells;
    const missing = [];
    for (let i = 0; i < cells.length; i++) {
        const cell = cells.get(i);
        if (cell.type === 'code' && !cell.executionCount) missing.push([i, cell.sharedModel.getSource().slice(0, 60)]);
    }
    return missing;
}"""

EXERCISE_LESSON = "02_backward/02_backward.ipynb"
EXERCISE_STUB = "def grad_via_backward(f, x):"
WRONG_ANSWER = ("def grad_via_backward(f, x):\n"   # forgot requires_grad
                "    f(x).backward()\n"
                "    return x.grad")
EXERCISE_ANSWER = ("def grad_via_backward(f, x):\n"
                   "    x = x.detach().clone().requires_grad_(True)\n"
                   "    f(x).backward()\n"
                   "    return x.grad")


@pytest.fixture(scope="module")
def lab():
    with jupyterlab(RELEASE, extra_args=("--LabApp.expose_app_in_browser=True",)) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with launched() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def run_lesson(lab, browser):
    """Open a lesson in a fresh tab and Run > Run All Cells; once per lesson, shared by the tests.

    A run that stops moving (no cell finishes for STALL_S seconds) is tried once more in a fresh
    tab with a fresh kernel, and the first stall is reported as a warning with what the page showed:
    a lesson that cannot run to the end fails twice; a rare stall of the kernel's messaging is seen
    in the test's output without failing the suite.
    """
    pages = {}

    def run(path: str):
        if path not in pages:
            stalls = []
            while path not in pages:
                page = browser.new_page(viewport={"width": 1280, "height": 900})
                page.set_default_timeout(30_000)
                page.goto(lab.notebook_url(path))
                page.wait_for_function(KERNEL_IDLE, timeout=KERNEL_TIMEOUT_MS)
                why = _run_all(page)
                if why is None:
                    pages[path] = page
                    continue
                stalls.append(_why_unfinished(page, lab, path, why, attempt=len(stalls) + 1))
                page.close()
                lab.shut_down_kernels_of(path)
                if len(stalls) == 2:
                    raise AssertionError("\n\nThen, in a fresh tab and kernel:\n".join(stalls))
                warnings.warn(f"Run All stalled; trying once more in a fresh tab and kernel.\n{stalls[0]}")
        return pages[path]

    yield run
    for page in pages.values():
        page.close()


def _run_all(page) -> str | None:
    """Run > Run All Cells from the menu bar; None once it has finished, else why it did not."""
    page.get_by_role("menuitem", name="Run", exact=True).click()
    page.get_by_role("menuitem", name="Run All Cells", exact=True).click()
    start = moved = time.monotonic()
    last = None
    while True:
        try:
            page.wait_for_function(RUN_FINISHED, timeout=1_000, polling=250)
            return None
        except PlaywrightTimeoutError:
            pass
        state = _run_state(page)
        now = time.monotonic()
        if (state["prompts"], state["status"]) != last:
            last, moved = (state["prompts"], state["status"]), now
        elif now - moved > STALL_S:
            return f"stalled: no cell finished for {STALL_S} s"
        if now - start > RUN_ALL_TIMEOUT_S:
            return f"did not finish within {RUN_ALL_TIMEOUT_S} s"


def _run_state(page) -> dict:
    """RUN_STATE, read with a timeout (a page that no longer answers fails the test, never hangs it)."""
    return page.wait_for_function(RUN_STATE, timeout=10_000).json_value()


def _why_unfinished(page, lab, path: str, why: str, attempt: int) -> str:
    """What a person would look at when Run All does not end: the prompts, the kernel, the server's log."""
    state = _run_state(page)
    shot = screenshot(page, f"{os.path.dirname(path)}-unfinished-{attempt}")
    return (f"{path}: Run All {why}.\n"
            f"kernel {state['kernel']!r}, status {state['status']!r}; code cells {state['prompts']} (indices among all cells)\n"
            f"the first queued cell: {state['first_queued']!r}\n"
            f"dialogs: {state['dialogs']}\nscreenshot: {shot}\nJupyterLab's log, last lines:\n{tail(lab.log_path)}")


def screenshot(page, name: str) -> str:
    """The whole notebook, not just the first screen: grow the window until the notebook fits.

    JupyterLab scrolls the notebook inside its own panel, so a "full page" screenshot alone would
    stop at the window's edge. Cells are rendered lazily, so the height is measured again after
    each resize until it stops changing. It is measured to the last cell: the scroll height also
    holds the "scroll past end" room, which grows with the window.
    """
    os.makedirs(SCREENSHOTS, exist_ok=True)
    path = os.path.join(SCREENSHOTS, f"{name}.png")
    size = page.viewport_size
    scroller = page.locator(".jp-NotebookPanel-notebook .jp-WindowedPanel-outer")
    height = size["height"]
    for _ in range(5):
        hidden = scroller.evaluate(BELOW_LAST_CELL)
        if hidden <= 0 or height >= MAX_SCREENSHOT_HEIGHT:
            break
        height = min(height + hidden, MAX_SCREENSHOT_HEIGHT)
        page.set_viewport_size({"width": size["width"], "height": height})
        page.wait_for_timeout(500)
    scroller.evaluate("e => e.scrollTo(0, 0)")
    page.wait_for_timeout(300)
    page.screenshot(path=path, full_page=True)
    page.set_viewport_size(size)
    return path


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_run_all_shows_the_whole_lesson(run_lesson, path):
    page = run_lesson(path)
    name = os.path.dirname(path)
    screenshot(page, name)
    notebook = page.locator(".jp-NotebookPanel-notebook")

    assert page.evaluate(ERROR_OUTPUTS) == [], f"{path}: Run All produced tracebacks"
    assert page.evaluate(UNEXECUTED_CELLS) == [], f"{path}: code cells that never ran ([index, source])"
    # a course figure is shown as HTML, its PNG in an <img> with its text alternative (JupyterLab gives
    # an image/png output no alt)
    assert notebook.locator(".jp-OutputArea-output img[alt]").count() >= 1, f"{path}: no rendered figure"
    assert notebook.locator(".jp-OutputArea-output .jupyter-widgets").count() >= 1, \
        f"{path}: no rendered ipywidget (is the widget extension loaded?)"
    assert notebook.get_by_text("Not attempted yet").count() >= 1, f"{path}: no 'Not attempted yet' self-check"
    validate = page.locator(".jp-NotebookPanel-toolbar .validate-button")
    expect(validate).to_have_text("Validate")
    expect(validate).to_be_visible()


def _answer_and_check(page, exercise, check, answer: str):
    """Type an answer as a student would, run it, run its check; return the check's output."""
    exercise.locator(".cm-content").click()
    page.keyboard.press("ControlOrMeta+a")
    # insert_text puts the text in as one input, like a paste, so the editor's auto-indent on
    # Enter cannot double the indentation that the answer already has.
    page.keyboard.insert_text(answer)
    expect(exercise.locator(".cm-content")).to_have_text(answer.replace("\n", ""), use_inner_text=False)
    page.keyboard.press("Shift+Enter")  # run the answer, move to the check
    expect(check).to_have_class(re.compile(r"\bjp-mod-selected\b"))
    page.keyboard.press("Shift+Enter")  # run the check
    page.wait_for_function(RUN_FINISHED, timeout=60_000)
    return check.locator(".jp-OutputArea-output")


def test_typed_answers_get_their_verdicts(run_lesson):
    """A wrong answer is told its autograd mistake; the corrected answer passes."""
    page = run_lesson(EXERCISE_LESSON)
    cells = page.locator(".jp-Notebook .jp-Cell")
    exercise = cells.filter(has=page.locator(".jp-InputArea", has_text=EXERCISE_STUB))
    expect(exercise).to_have_count(1)
    check = exercise.locator("xpath=following-sibling::div[contains(@class, 'jp-Cell')][1]")
    expect(check.locator(".jp-OutputArea-output")).to_contain_text("Not attempted yet")
    os.makedirs(SCREENSHOTS, exist_ok=True)

    output = _answer_and_check(page, exercise, check, WRONG_ANSWER)
    expect(output).to_contain_text("Incorrect", timeout=30_000)
    expect(output).to_contain_text("does not require grad")
    check.scroll_into_view_if_needed()
    page.screenshot(path=os.path.join(SCREENSHOTS, "02_backward-grad_via_backward-incorrect.png"))

    output = _answer_and_check(page, exercise, check, EXERCISE_ANSWER)
    expect(output).to_contain_text("Correct:", timeout=30_000)
    expect(output).not_to_contain_text("Incorrect")
    check.scroll_into_view_if_needed()
    page.screenshot(path=os.path.join(SCREENSHOTS, "02_backward-grad_via_backward-correct.png"))


def _image_source(widget) -> str:
    image = widget.locator("img").first
    expect(image).to_have_attribute("src", re.compile(r"^(blob:|data:)"))
    return image.get_attribute("src")


def _wait_for_a_new_image(page, widget, before: str) -> str:
    """The text and the picture are two widgets, synced one after the other: wait for the picture."""
    page.wait_for_function("([el, before]) => el.querySelector('img').src !== before",
                           arg=[widget.element_handle(), before], timeout=30_000)
    return _image_source(widget)


def test_stepping_through_backward_changes_the_drawing(run_lesson):
    """The step slider, moved with the keyboard as a student might, redraws the graph each step."""
    page = run_lesson(EXERCISE_LESSON)
    widget = page.locator(".backward-steps")
    expect(widget).to_have_count(1)
    widget.scroll_into_view_if_needed()
    expect(widget).to_contain_text("Before backward()")
    first = _image_source(widget)
    os.makedirs(SCREENSHOTS, exist_ok=True)
    widget.screenshot(path=os.path.join(SCREENSHOTS, "02_backward-backward_steps-step0.png"))

    handle = widget.locator(".noUi-handle").first
    handle.focus()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    # The picture is sent before the sentence, so once the sentence says step 3, so does the picture.
    expect(widget).to_contain_text("Step 3/5", timeout=30_000)
    third = _wait_for_a_new_image(page, widget, first)
    page.wait_for_timeout(500)  # let the browser paint the last image
    widget.screenshot(path=os.path.join(SCREENSHOTS, "02_backward-backward_steps-step3.png"))

    widget.get_by_role("button", name="next ▶").click()
    widget.get_by_role("button", name="next ▶").click()
    expect(widget).to_contain_text("8 + 2 = 10 (2 paths meet); b.grad was None, is now 10.", timeout=30_000)
    _wait_for_a_new_image(page, widget, third)
    widget.screenshot(path=os.path.join(SCREENSHOTS, "02_backward-backward_steps-step5.png"))


def test_a_typed_expression_shows_its_graph_and_gradients(run_lesson):
    page = run_lesson(EXERCISE_LESSON)
    widget = page.locator(".expression-graph")
    expect(widget).to_have_count(1)
    widget.scroll_into_view_if_needed()
    expect(widget).to_contain_text("df/dy = y.grad = 1")
    first = _image_source(widget)
    box = widget.locator("input[type=text]").first
    box.fill("x * x")
    box.press("Enter")
    expect(widget).to_contain_text("df/dx = x.grad = 2", timeout=30_000)
    expect(widget).to_contain_text("y.grad = None (f does not depend on it)")
    _wait_for_a_new_image(page, widget, first)
    widget.screenshot(path=os.path.join(SCREENSHOTS, "02_backward-expression_graph.png"))
    box.fill("__import__('os')")
    box.press("Enter")
    expect(widget).to_contain_text("Cannot build f", timeout=30_000)


FREED_GRAPH_CELL = ("x = torch.tensor(2.0, requires_grad=True)\n"
                    "y = torch.sin(x) * x\n"
                    "y.backward()\n"
                    "y.backward()")


def test_an_autograd_error_in_a_cell_of_ones_own_is_explained(run_lesson):
    """A cell the student adds, which backpropagates twice through one graph: PyTorch's message, then
    one line in autograd terms naming the section of this lesson that explains it."""
    page = run_lesson(EXERCISE_LESSON)
    cells = page.locator(".jp-Notebook .jp-Cell")
    count = cells.count()
    cells.last.locator(".jp-InputPrompt").click()  # select the last cell, in command mode
    page.keyboard.press("Escape")
    page.keyboard.press("b")  # a new cell below it
    expect(cells).to_have_count(count + 1)
    added = cells.nth(count)  # by position: Shift+Enter on the last cell adds yet another below it
    added.locator(".cm-content").click()
    page.keyboard.insert_text(FREED_GRAPH_CELL)
    page.keyboard.press("Shift+Enter")
    page.wait_for_function(RUN_FINISHED, timeout=60_000)
    output = added.locator(".jp-OutputArea")
    expect(output).to_contain_text("Trying to backward through the graph a second time", timeout=30_000)
    expect(output).to_contain_text("In autograd terms: the first backward() freed the graph")
    expect(output).to_contain_text("section 4, The graph is freed after backward()")
    added.scroll_into_view_if_needed()
    os.makedirs(SCREENSHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SCREENSHOTS, "02_backward-autograd-error-explained.png"))
