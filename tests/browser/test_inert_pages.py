"""Feedback and formgrader, opened in Chromium on hostile submissions: no script runs, nothing covers the page.

One scratch course of lesson 2, its gradebook made by nbgrader, holds the corpus's page cases as
they come out of grading (their files as the cases build them, their outputs as their code
displays them: ``javascript_link``, ``overlay_dialog``, ``image_metadata``, ``forged_prompts``, the
last with the execution counts its kernel forged kept as they came, as a grader that did not check
them would store them, and ``cell_metadata``) and the plain solution. Feedback is written by
nbgrader's own ``generate_feedback`` with the course's configuration, and formgrader serves each
submission from the instructor's JupyterLab, configured as ``make instructor-lab`` configures it.
In both, clicking every link runs no script (the corpus's SCRIPT_MARK never appears); the element
on top at the centre and the four corners of the window is the page's own (student content stays
inside its box, no cell leaves the flow); every cell is shown with its code; every image of a cell
sits in a student box, with a data: source and no other attribute of the student's. The same
notebooks rendered by nbgrader's plain exporter do run the script and are covered, so the checks
can fail. Formgrader still grades each under its page's policy: its "Full credit" button stores the
written answer's points. The feedback page of the solution, opened with the network off, shows its
formulas typeset (MathML), no raw TeX, and asks for nothing.
"""
import os

import nbformat
import pytest
from nbconvert.exporters import HTMLExporter
from nbgrader.api import Gradebook
from playwright.sync_api import expect
from traitlets.config import Config

from autograder.authoring.release import generate_release

from autograder.workflow.pages import feedback_command
from autograder.authoring.prove import scratch_course
from autograder.authoring.wrong_answers import build_submission, solution_cells
from hostile import cell_metadata, forged_prompts, image_metadata, javascript_link, lean, overlay_dialog

from .chromium import launched, require_browser
from .jupyterlab_server import lab_as

pytestmark = pytest.mark.browser
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LESSON = "02_backward"
RENDER_TIMEOUT = 45  # the course's setting here, which formgrader's exporter must take
SHOTS = os.path.join(ROOT, "test-artifacts", "inert-pages")

require_browser()


def _forged(messages) -> tuple[list, object]:
    """The outputs nbclient makes of IOPub messages (fields as they came), and the execution count they set."""
    outputs, count = [], None
    for kind, content in messages:
        if kind == "execute_input":
            count = content["execution_count"]
        else:
            outputs.append(nbformat.from_dict({"output_type": kind, **content}))
    return outputs, count


# what each case's code displays in the vjp cell, as grading stores it (and the cell's execution count)
OUTPUTS = {
    "javascript_link": ([nbformat.v4.new_output("display_data", data=data) for data in
                         ({"text/markdown": javascript_link.MARKDOWN}, {"text/html": javascript_link.HTML})], 1),
    "overlay_dialog": ([nbformat.v4.new_output("display_data", data={"text/html": overlay_dialog.DIALOG})], 1),
    "image_metadata": ([nbformat.from_dict({"output_type": "display_data", "data": data, "metadata": metadata})
                        for data, metadata in image_metadata.SHOWN], 1),
    "forged_prompts": _forged(forged_prompts.MESSAGES),
    "cell_metadata": ([nbformat.v4.new_output("display_data", data={"image/png": image_metadata.PNG})], 1),
}
CASES = {"javascript_link": javascript_link, "overlay_dialog": overlay_dialog, "image_metadata": image_metadata,
         "forged_prompts": forged_prompts, "cell_metadata": cell_metadata}

# where a point is, what is on top there: the student's box, when it is in one, must hold the point, and
# the cell it is in must be in the page's flow
ON_TOP = """points => points.map(([x, y]) => {
    const el = document.elementFromPoint(x, y);
    const box = el && el.closest('[data-student]');
    const r = box && box.getBoundingClientRect();
    const cell = el && el.closest('.cell');
    return {x, y, tag: el ? el.tagName : null,
            overlay: !!(el && el.closest('#hostile-overlay, #hostile-cover, .modal, .modal-backdrop')),
            outside_its_box: !!(r && (x < r.left || x > r.right || y < r.top || y > r.bottom)),
            cell_out_of_flow: !!(cell && ['fixed', 'absolute', 'sticky'].includes(getComputedStyle(cell).position))};
})"""
# every image of a cell: in a student box, from a data: URL (or none), with none of the student's attributes
STRAY_IMAGES = """() => [...document.querySelectorAll('.cell img')].filter(img =>
    !img.closest('[data-student]') || !(img.getAttribute('src') || 'data:image/').startsWith('data:image/')
    || img.getAttributeNames().some(name => !['src', 'alt', 'width', 'height', 'class'].includes(name))
    || ['width', 'height'].some(name => img.hasAttribute(name) && !/^[0-9]+$/.test(img.getAttribute(name)))
).map(img => img.outerHTML.slice(0, 200))"""
HIDDEN_CELLS = "() => [...document.querySelectorAll('.cell')].filter(c => getComputedStyle(c).display === 'none').length"


def _with_outputs(notebook, case: str):
    notebook = lean(notebook)
    cell = next(c for c in notebook.cells if c.get("id") == "vjp")
    cell.outputs, cell.execution_count = OUTPUTS[case]
    return notebook


def _place(root: str, student: str, notebook) -> None:
    for stage in ("submitted", "autograded"):
        folder = os.path.join(root, stage, student, LESSON)
        os.makedirs(folder, exist_ok=True)
        nbformat.write(notebook, os.path.join(folder, f"{LESSON}.ipynb"))


@pytest.fixture(scope="module")
def course(tmp_path_factory):
    """Lesson 2's gradebook, three submissions as graded, and nbgrader's feedback for each."""
    root = scratch_course(ROOT, str(tmp_path_factory.mktemp("inert-pages")), LESSON)
    with open(os.path.join(root, "nbgrader_config.py"), "a") as config:
        config.write(f"\nc.InertHTMLExporter.render_timeout = {RENDER_TIMEOUT}\n")
    generate_release(root, [LESSON])
    release = nbformat.read(os.path.join(root, "release", LESSON, f"{LESSON}.ipynb"), as_version=4)
    solutions = solution_cells(nbformat.read(os.path.join(root, "source", LESSON, f"{LESSON}.ipynb"), as_version=4))
    notebooks = {f"hostile_{name}": _with_outputs(case.build(release, solutions), name) for name, case in CASES.items()}
    notebooks["math_reader"] = build_submission(release, solutions)
    with Gradebook(f"sqlite:///{os.path.join(root, 'gradebook.db')}") as gradebook:
        for student, notebook in notebooks.items():
            gradebook.add_student(student)
            _place(root, student, notebook)
            gradebook.add_submission(LESSON, student)
    problems = feedback_command.generate_feedback(root, LESSON, sorted(notebooks))
    assert not problems, problems
    return root


def feedback_path(root: str, student: str) -> str:
    return os.path.join(root, "feedback", student, LESSON, f"{LESSON}.html")


@pytest.fixture(scope="module")
def browser():
    with launched() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def formgrader(course):
    with lab_as("instructor", course) as running:
        yield running


def _corners(page) -> list:
    width, height = page.viewport_size["width"], page.viewport_size["height"]
    return [[width // 2, height // 2], [2, 2], [width - 20, 2], [2, height - 3], [width - 20, height - 3]]


def _covered(page) -> list:
    """The points where a student's content is on top outside its box or its cell's place, or an overlay is."""
    return [p for p in page.evaluate(ON_TOP, _corners(page))
            if p["overlay"] or p["outside_its_box"] or p["cell_out_of_flow"]]


def _every_cell_shown_as_data(page) -> None:
    """Each cell displayed, with its code; each of its images boxed, plain data (STRAY_IMAGES)."""
    assert page.evaluate(HIDDEN_CELLS) == 0, "a cell is hidden"
    assert page.locator(".cell", has_text="def vjp(f, x, v)").count() == 1, "the student's code is not shown"
    assert page.evaluate(STRAY_IMAGES) == []


def _script_ran(page) -> bool:
    return page.evaluate("() => document.body.getAttribute('data-marker')") is not None


def _click_every_link(page, url: str, scope: str = "body") -> int:
    """Activate each link in ``scope`` as a click does (coming back after any that leaves); how many."""
    count = page.locator(f"{scope} a").count()
    for index in range(count):
        if page.url.split("#")[0] != url.split("#")[0]:
            page.goto(url)
        page.locator(f"{scope} a").nth(index).evaluate("link => link.click()")
        page.wait_for_timeout(30)
        assert not _script_ran(page), f"link {index} ran the student's script"
    return count


def _open(browser, url: str, offline: bool = False, token: str | None = None):
    """A fresh context on ``url``; offline, every request that is not for a file is refused and listed."""
    headers = {"Authorization": f"token {token}"} if token else None  # formgrader's own requests too
    context = browser.new_context(viewport={"width": 1280, "height": 900}, offline=offline, extra_http_headers=headers)
    asked = []
    if offline:
        context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(("file:", "data:"))
                      else (asked.append(route.request.url), route.abort()))
    page = context.new_page()
    page.goto(url)
    page.wait_for_timeout(500)
    return context, page, asked


def _look_at_the_case(page, case: str, name: str) -> None:
    """Screenshots of the page as it opens and with the case's vjp cell (its code, then its outputs) in view."""
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}-{case}-top.png"))
    page.locator(".cell", has_text="def vjp(f, x, v)").evaluate("cell => cell.scrollIntoView({block: 'center'})")
    page.screenshot(path=os.path.join(SHOTS, f"{name}-{case}-cell.png"))


@pytest.mark.parametrize("case", sorted(CASES))
def test_feedback_runs_no_script_and_nothing_covers_it(browser, course, case):
    url = f"file://{feedback_path(course, f'hostile_{case}')}"
    context, page, _ = _open(browser, url)
    try:
        assert not _covered(page), _covered(page)
        _every_cell_shown_as_data(page)
        _look_at_the_case(page, case, "feedback")
        assert _click_every_link(page, url) > 0
        page.goto(url)
        for box in range(page.locator("[data-student]").count()):  # each box in view: its content stays in it
            page.locator("[data-student]").nth(box).scroll_into_view_if_needed()
            assert not _covered(page), (box, _covered(page))
        assert not _script_ran(page)
    finally:
        context.close()


def _plain_page(course: str, case: str, tmp_path) -> str:
    """The same autograded notebook as nbgrader's plain feedback exporter renders it."""
    import nbgrader
    formgrader = os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader")
    css = os.path.join(formgrader, "static", "node_modules", "bootstrap", "dist", "css")
    exporter = HTMLExporter(config=Config({"HTMLExporter": {
        "template_name": "feedback", "extra_template_paths": [css],
        "extra_template_basedirs": [os.path.join(formgrader, "templates")]}}))
    notebook = nbformat.read(os.path.join(course, "autograded", f"hostile_{case}", LESSON, f"{LESSON}.ipynb"),
                             as_version=4)
    for cell in notebook.cells:  # what nbgrader's GetGrades would add
        cell.metadata.get("nbgrader", {}).setdefault("score", 0)
        cell.source = cell.source.replace(cell_metadata.MISSING, "")  # else the plain page is not made at all
    resources = {"nbgrader": {"notebook": LESSON, "score": 0, "max_score": 1, "late_penalty": 0}}
    path = tmp_path / f"plain-{case}.html"
    path.write_text(exporter.from_notebook_node(notebook, resources=resources)[0], encoding="utf-8")
    return f"file://{path}"


def test_the_checks_fail_on_nbgraders_plain_page(browser, course, tmp_path):
    for case in ("overlay_dialog", "image_metadata"):
        context, page, _ = _open(browser, _plain_page(course, case, tmp_path))
        try:
            assert len(_covered(page)) == 5, f"{case} should cover the plain page"
        finally:
            context.close()
    context, page, _ = _open(browser, _plain_page(course, "image_metadata", tmp_path))
    try:
        assert _script_ran(page), "its image's width should run a script on the plain page"
    finally:
        context.close()
    context, page, _ = _open(browser, _plain_page(course, "cell_metadata", tmp_path))
    try:
        assert page.evaluate(HIDDEN_CELLS) > 0 and page.locator(".cell", has_text="def vjp(f, x, v)").count() == 0
    finally:
        context.close()
    url = _plain_page(course, "javascript_link", tmp_path)
    context, page, _ = _open(browser, url)
    try:
        page.locator("a", has_text="See my working").click(no_wait_after=True)
        page.wait_for_function("() => document.body.getAttribute('data-marker') !== null", timeout=20_000)
        assert _script_ran(page), "the plain page's javascript: link should run"
    finally:
        context.close()


def _submission_url(lab, course: str, student: str) -> str:
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        submission = gradebook.find_submission_notebook(LESSON, LESSON, student).id
    return f"{lab.url}/formgrader/submissions/{submission}/"


@pytest.mark.parametrize("case", sorted(CASES))
def test_formgrader_runs_no_script_and_nothing_covers_it(browser, course, formgrader, case):
    url = _submission_url(formgrader, course, f"hostile_{case}")
    context, page, _ = _open(browser, url, token=formgrader.token)
    try:
        page.locator("main").wait_for()
        page.wait_for_timeout(1000)
        assert not _covered(page), _covered(page)
        _every_cell_shown_as_data(page)
        _look_at_the_case(page, case, "formgrader")
        assert page.locator("[data-student]").count() > 0, "formgrader did not render with the inert exporter"
        with open(formgrader.log_path, encoding="utf-8") as log:
            assert f"with InertHTMLExporter (at most {RENDER_TIMEOUT} s a page)" in log.read()
        assert _click_every_link(page, page.url, "main") > 0
        assert not _script_ran(page)
    finally:
        context.close()


@pytest.mark.parametrize("case", sorted(CASES))
def test_formgrader_still_grades_under_its_policy(browser, course, formgrader, case):
    url = _submission_url(formgrader, course, f"hostile_{case}")
    context, page, _ = _open(browser, url, token=formgrader.token)
    try:
        errors = []
        page.on("console", lambda message: errors.append(message.text))
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.reload()
        # formgrader binds its grade buttons once its grades have come back from its API
        page.wait_for_function("() => window.formgrader && formgrader.grades && formgrader.grades.loaded",
                               timeout=60_000)
        button = page.locator(".panel-heading", has=page.locator("#why_scalar")).locator("button.full-credit")
        for _ in range(3):  # a click before formgrader's view is bound does nothing: click again
            button.click()
            try:
                expect(page.locator("#why_scalar")).to_have_value("2", timeout=20_000)
                break
            except AssertionError:
                continue
        expect(page.locator("#why_scalar")).to_have_value("2", timeout=1_000)
        assert not errors, errors  # formgrader's own scripts ran, none refused by the policy
    finally:
        context.close()
    assert _stored_score(formgrader, f"hostile_{case}") == 2


def _stored_score(lab, student: str, wait: float = 30.0):
    """The written answer's manual score as the gradebook holds it, once formgrader's save has landed."""
    import time
    deadline = time.monotonic() + wait
    while True:
        with Gradebook(f"sqlite:///{os.path.join(lab.root_dir, 'gradebook.db')}") as gradebook:
            score = gradebook.find_grade("why_scalar", LESSON, LESSON, student).manual_score
        if score == 2 or time.monotonic() > deadline:
            return score
        time.sleep(0.5)


def test_formulas_are_typeset_offline_without_a_script(browser, course):
    url = f"file://{feedback_path(course, 'math_reader')}"
    context, page, asked = _open(browser, url, offline=True)
    try:
        assert page.locator("math").count() >= 20
        text = page.locator("body").inner_text()
        assert "$\\partial" not in text and "\\frac" not in text and "\\sum" not in text
        assert "amp;" not in page.locator("mtable").first.text_content()  # a matrix's columns, not escaped text
        assert page.locator("script").count() == 0
        assert asked == [], f"the page asked the network for {asked}"
        formula = page.locator("math").first
        formula.scroll_into_view_if_needed()
        assert formula.bounding_box()["height"] > 5  # laid out by the browser's MathML
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, "feedback-math-offline.png"))
    finally:
        context.close()
