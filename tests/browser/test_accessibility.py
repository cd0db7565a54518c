"""Every page a person opens meets WCAG 2.1 A and AA (axe-core in Chromium), reads as it should, works by keyboard.

The pages, each as its person opens it:

- each release lesson in the student's JupyterLab (configured as ``make lab`` configures it), after
  Run > Run All Cells: axe over the lesson's own content (its rendered markdown and every output)
  and over the whole page finds nothing but what JupyterLab and ipywidgets themselves break
  (``UPSTREAM``, each with its upstream issue in docs/accessibility.md); every figure's ``<img>``
  says in its ``alt`` what it shows;
- lesson 2's widgets used with the keyboard alone: a quick check answered with Space and the arrow
  keys, the backward() stepper moved with the arrow keys and its buttons pressed with Enter and
  Space, the expression box typed into and sent with Enter, the slope explorer moved; each result
  is read out (an alert) and each picture's ``alt`` follows it;
- the feedback pages of a full-marks and of a not-started submission of lesson 2, graded as
  ``autograd-course grade`` grades them and written by ``autograd-course feedback``'s step; the
  class report; formgrader's page of a submission, served by the instructor's JupyterLab. Each
  declares its language, has its content in one main landmark and its headings in order, and
  passes axe with nothing left over; on the feedback page, Tab and Enter reach each graded cell's
  result.

Screenshots of every page checked go to test-artifacts/accessibility/, to be looked at.
"""
import os
import re

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.authoring.prove import scratch_course
from autograder.authoring.release import generate_release
from autograder.authoring.wrong_answers import build_submission, solution_cells, write_submission
from autograder.workflow.pages import feedback_command
from autograder.workflow.pages.report import build_report

from .axe_audit import audit, require_axe, said, violations
from .chromium import launched, require_browser
from .jupyterlab_server import lab_as

pytestmark = pytest.mark.browser
require_browser()
require_axe()
from playwright.sync_api import expect  # noqa: E402

from .test_student_view import KERNEL_IDLE, KERNEL_TIMEOUT_MS, NOTEBOOKS, RELEASE, _run_all  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOTS = os.path.join(ROOT, "test-artifacts", "accessibility")
LESSON = "02_backward"
# What other projects' own elements break, by axe rule: CSS selectors of those elements. Each is listed,
# with its upstream issue, in docs/accessibility.md; an element of the course's that breaks a rule is
# never among them.
UPSTREAM = {
    "aria-input-field-name": [".jp-InputArea-editor .cm-content",  # JupyterLab: cell editors have no name
                              ".widget-slider .noUi-handle"],  # ipywidgets: a slider's handle has no name
    "aria-required-children": [".jp-WindowedPanel-viewport"],  # JupyterLab: the cells' feed holds non-articles
    "button-name": [".jp-collapseHeadingButton"],  # JupyterLab: a heading's collapse button has no name
    "aria-allowed-attr": ["jp-button"],  # JupyterLab: toolbar buttons carry aria-pressed
}
THE_LESSONS_OWN = ".jp-NotebookPanel-notebook :is(.jp-MarkdownOutput, .jp-OutputArea-output)"
HEADINGS = "() => [...document.querySelectorAll('main h1, main h2, main h3, main h4, main h5, main h6')].map(h => +h.tagName[1])"


def _shot(page, name: str, full_page: bool = False) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=full_page)


def _passes(page, within: str | None = None, upstream: dict | None = None) -> None:
    found = violations(page, within, upstream)
    assert not found, f"WCAG 2.1 A/AA violations{' in ' + within if within else ''}:\n{said(found)}"


@pytest.fixture(scope="module")
def browser():
    with launched() as chromium:
        yield chromium


# ---- the lessons, in the student's JupyterLab ------------------------------------------------------

@pytest.fixture(scope="module")
def lab():
    with lab_as("student", RELEASE) as running:
        yield running


@pytest.fixture(scope="module")
def lesson(lab, browser):
    """Each lesson opened in a tab of its own and run to the end, once: path -> page."""
    pages = {}

    def opened(path: str):
        if path not in pages:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(30_000)
            page.goto(lab.notebook_url(path))
            page.wait_for_function(KERNEL_IDLE, timeout=KERNEL_TIMEOUT_MS)
            why = _run_all(page)
            assert why is None, f"{path}: Run All {why}"
            pages[path] = page
        return pages[path]

    yield opened
    for page in pages.values():
        page.close()


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_a_lesson_in_jupyterlab_passes_axe_on_all_it_shows(lesson, path):
    page = lesson(path)
    figures = page.locator(".jp-NotebookPanel-notebook .jp-OutputArea-output img")
    assert figures.count() >= 1, f"{path}: no figure"
    for alt in figures.evaluate_all("images => images.map(i => i.getAttribute('alt'))"):
        assert alt and len(alt) > 40 and ". " in alt, f"{path}: a figure without a text alternative: {alt!r}"
    _passes(page, THE_LESSONS_OWN, {"aria-input-field-name": UPSTREAM["aria-input-field-name"][1:]})
    _passes(page, upstream=UPSTREAM)
    theirs = {v["rule"]: v["upstream"] for v in audit(page, upstream=UPSTREAM) if v["upstream"]}
    print(f"{path}: elements of JupyterLab and ipywidgets that break a rule (docs/accessibility.md): {theirs}")
    _shot(page, os.path.dirname(path))
    figures.first.scroll_into_view_if_needed()
    expect(figures.first).to_be_in_viewport()
    page.evaluate("() => new Promise(painted => requestAnimationFrame(() => requestAnimationFrame(painted)))")
    _shot(page, f"{os.path.dirname(path)}-first-figure")


def _widget(page, css: str):
    widget = page.locator(css)
    expect(widget).to_have_count(1)
    widget.scroll_into_view_if_needed()
    return widget


def _alt(widget) -> str:
    return widget.locator("img").first.get_attribute("alt")


def _has_visible_focus(locator) -> bool:
    """The focused element looks different from when it is not focused (an outline, a shadow, a fill, a border)."""
    return locator.evaluate("""e => {
        const look = () => { const s = getComputedStyle(e);
            return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.backgroundColor, s.borderColor].join('|'); };
        if (document.activeElement !== e) return false;
        const focused = look(); e.blur(); const plain = look(); e.focus();
        return focused !== plain; }""")


def test_a_quick_check_is_answered_by_keyboard_and_says_its_verdict(lesson):
    page = lesson(f"{LESSON}/{LESSON}.ipynb")
    check = page.locator(".jp-OutputArea-output", has=page.locator(".widget-radio-box")).first
    check.scroll_into_view_if_needed()
    options = check.get_by_role("radio")
    assert options.count() >= 2
    options.first.focus()  # where Tab lands on the first option of the group
    page.keyboard.press("Space")
    expect(options.first).to_be_checked()
    verdict = check.get_by_role("alert")
    expect(verdict).to_contain_text(re.compile(r"(Right\.|Not A\.)"))
    assert _has_visible_focus(options.first)
    _shot(page, f"{LESSON}-quick-check-first")
    first = verdict.inner_text()
    # JupyterLab takes the arrow keys for moving between cells, so a student tabs to the next option
    page.keyboard.press("Tab")
    expect(options.nth(1)).to_be_focused()
    page.keyboard.press("Space")
    expect(options.nth(1)).to_be_checked()
    expect(check.get_by_role("alert")).not_to_have_text(first)
    expect(check.get_by_role("alert")).to_contain_text(re.compile(r"(Right\.|Not B\.)"))
    _shot(page, f"{LESSON}-quick-check-second")


def test_the_backward_stepper_is_moved_by_keyboard_and_says_each_step(lesson):
    page = lesson(f"{LESSON}/{LESSON}.ipynb")
    steps = _widget(page, ".backward-steps")
    before = _alt(steps)
    assert "backward() has not run any node yet" in before
    handle = steps.get_by_role("slider")
    handle.focus()
    page.keyboard.press("ArrowRight")
    expect(steps.get_by_role("alert")).to_contain_text("Step 1/5")
    expect(steps.locator("img")).to_have_attribute("alt", re.compile(r"backward\(\) has run node 1 \(1 of 5\)"))
    assert _has_visible_focus(handle)
    _shot(page, f"{LESSON}-stepper-step1")
    page.keyboard.press("Tab")  # the slider's readout, where a step's number can be typed
    page.keyboard.press("Tab")
    expect(steps.get_by_role("button", name="◀ back")).to_be_focused()
    page.keyboard.press("Tab")
    nxt = steps.get_by_role("button", name="next ▶")
    expect(nxt).to_be_focused()
    page.keyboard.press("Enter")
    expect(steps.get_by_role("alert")).to_contain_text("Step 2/5")
    page.keyboard.press("Space")
    expect(steps.get_by_role("alert")).to_contain_text("Step 3/5")
    expect(steps.locator("img")).to_have_attribute("alt", re.compile(r"\(3 of 5\)"))
    assert _has_visible_focus(nxt)
    _shot(page, f"{LESSON}-stepper-step3")


def test_the_expression_box_is_typed_into_and_reads_out_its_gradients(lesson):
    page = lesson(f"{LESSON}/{LESSON}.ipynb")
    box = _widget(page, ".expression-graph")
    field = box.get_by_role("textbox", name="f(x, y) =")
    field.focus()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.type("x * x")
    page.keyboard.press("Enter")
    expect(box.get_by_role("alert")).to_contain_text("df/dx = x.grad = 2")
    expect(box.locator("img")).to_have_attribute("alt", re.compile(r"^f = x \* x\. "))
    _shot(page, f"{LESSON}-expression-box")


def test_the_slope_explorer_is_moved_by_keyboard_and_says_the_slope(lesson):
    page = lesson(f"{LESSON}/{LESSON}.ipynb")
    explorer = page.locator(".widget-vbox", has=page.locator(".widget-slider", has_text="x")).filter(
        has=page.locator("code", has_text="slope f'(x) from autograd")).last
    explorer.scroll_into_view_if_needed()
    before = _alt(explorer)
    explorer.get_by_role("slider").focus()
    page.keyboard.press("ArrowRight")
    expect(explorer.get_by_role("alert")).to_contain_text("slope f'(x) from autograd")
    expect(explorer.locator("img")).not_to_have_attribute("alt", before)
    moved = _alt(explorer)
    smaller = explorer.get_by_role("button", name="◀ smaller x")
    for _ in range(3):  # from the slider's handle, which has no name (ipywidgets#2650), past its readout
        page.keyboard.press("Tab")
        if smaller.evaluate("button => button === document.activeElement"):
            break
    expect(smaller).to_be_focused()
    page.keyboard.press("Enter")
    expect(explorer.locator("img")).not_to_have_attribute("alt", moved)
    _shot(page, f"{LESSON}-slope-explorer")


# ---- the pages made from graded notebooks -----------------------------------------------------------

FULL, NOT_STARTED = "full_marks", "not_started"


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """Lesson 2 with a full-marks and a not-started submission, graded as the course grades, each
    with its feedback page, and the class report."""
    from autograder.authoring.prove import _grade_as_the_course_does
    root = scratch_course(ROOT, str(tmp_path_factory.mktemp("accessible-pages")), LESSON)
    generate_release(root, [LESSON])
    name = f"{LESSON}.ipynb"
    source = nbformat.read(os.path.join(root, "source", LESSON, name), as_version=4)
    release = nbformat.read(os.path.join(root, "release", LESSON, name), as_version=4)
    write_submission(root, FULL, LESSON, name, build_submission(release, solution_cells(source)))
    write_submission(root, NOT_STARTED, LESSON, name, release)
    assert _grade_as_the_course_does(root, LESSON) == {}
    assert feedback_command.generate_feedback(root, LESSON, [FULL, NOT_STARTED]) == {}
    build_report(root, os.path.join(root, "report"))
    return root


def _open(browser, url: str, token: str | None = None):
    headers = {"Authorization": f"token {token}"} if token else None
    context = browser.new_context(viewport={"width": 1280, "height": 900}, extra_http_headers=headers)
    page = context.new_page()
    page.goto(url)
    return context, page


def _declared(page) -> None:
    """Its language, one main landmark holding its content, headings that start at h1 and skip no level."""
    assert page.locator("html").get_attribute("lang") == "en"
    expect(page.locator("main")).to_have_count(1)
    levels = page.evaluate(HEADINGS)
    assert levels and levels[0] == 1, levels
    assert all(b <= a + 1 for a, b in zip(levels, levels[1:])), f"a heading skips a level: {levels}"


@pytest.mark.parametrize("student", [FULL, NOT_STARTED])
def test_a_feedback_page_passes_axe_and_each_result_is_reached_by_keyboard(browser, course, student):
    path = os.path.join(course, "feedback", student, LESSON, f"{LESSON}.html")
    context, page = _open(browser, f"file://{path}")
    try:
        _passes(page)
        _declared(page)
        expect(page.locator("h1").first).to_contain_text(f"{LESSON} (Score:")
        images = page.locator(".cell img")
        assert images.count() >= 3
        for alt in images.evaluate_all("images => images.map(i => i.getAttribute('alt'))"):
            assert alt and ". " in alt and "No description" not in alt, alt
        _shot(page, f"feedback-{student}-top")
        links = page.locator("#toc a")
        graded = [a for a in links.evaluate_all("as => as.map(a => a.getAttribute('href'))") if "comment-" not in a]
        for target in graded:  # Tab to the cell's link in the list of results, Enter: the cell is in view
            page.goto(f"file://{path}")  # a fresh start: Tab from the top of the page
            for _ in range(links.count() + 1):
                page.keyboard.press("Tab")
                if page.evaluate("() => document.activeElement.getAttribute('href')") == target:
                    break
            else:
                pytest.fail(f"Tab never reached the link to {target}")
            page.keyboard.press("Enter")
            anchor = page.locator(f"a[name='{target[1:]}']")
            cell = anchor.locator("xpath=following::div[contains(@class, 'panel-body')][1]")
            expect(cell).to_be_in_viewport()
        _shot(page, f"feedback-{student}-last-result")
    finally:
        context.close()


def test_the_class_report_passes_axe_and_declares_its_structure(browser, course):
    context, page = _open(browser, f"file://{os.path.join(course, 'report', 'report.html')}")
    try:
        _passes(page)
        _declared(page)
        for alt in page.locator("img").evaluate_all("images => images.map(i => i.getAttribute('alt'))"):
            assert alt, "a chart without a text alternative"
        _shot(page, "class-report", full_page=True)
    finally:
        context.close()


def test_formgraders_page_of_a_submission_passes_axe(browser, course):
    with lab_as("instructor", course) as formgrader:
        with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
            submission = gradebook.find_submission_notebook(LESSON, LESSON, FULL).id
        context, page = _open(browser, f"{formgrader.url}/formgrader/submissions/{submission}/", formgrader.token)
        try:
            page.wait_for_function("() => window.formgrader && formgrader.grades && formgrader.grades.loaded",
                                   timeout=60_000)
            _shot(page, "formgrader-submission")
            _passes(page)
            _declared(page)
            for alt in page.locator("main .cell img").evaluate_all("images => images.map(i => i.getAttribute('alt'))"):
                assert alt and ". " in alt, alt
        finally:
            context.close()
