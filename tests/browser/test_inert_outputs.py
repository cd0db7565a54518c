"""No script a student's code wrote runs in a browser: not in feedback, not in the instructor's formgrader.

A graded notebook whose outputs and markdown carry every way a kernel could put script on a page
(an application/javascript output, <script> and event handlers in HTML, SVG with script,
javascript: links, an iframe) is rendered the way nbgrader's feedback and formgrader render it,
with this course's configuration (its exporter, ``InertHTMLExporter``, and ``InertOutputs``), and
opened in Chromium: the marker the scripts would write never appears. Rendered by nbconvert's plain
exporter without ``InertOutputs``, the same page does write it: the check can fail.
"""
import os

import nbformat
import pytest
from nbconvert.exporters import HTMLExporter
from traitlets.config import Config, PyFileConfigLoader
from traitlets.utils.importstring import import_item

from .chromium import CHROMIUM, CHROMIUM_ARGS, require_browser

pytestmark = pytest.mark.browser
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = "document.body.setAttribute('data-marker', 'student-script-ran'); window.__marker = 1;"

require_browser()
from playwright.sync_api import sync_playwright  # noqa: E402


def hostile_notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata.widgets = {"application/vnd.jupyter.widget-state+json": {"state": {}, "version_major": 2,
                                                                          "version_minor": 0}}
    code = nbformat.v4.new_code_cell("show()", metadata={"nbgrader": {"grade": False, "solution": True,
                                                                     "locked": False, "grade_id": "show",
                                                                     "schema_version": 3}})
    code.outputs = [
        nbformat.v4.new_output("display_data", data={"application/javascript": MARK, "text/plain": "js"}),
        nbformat.v4.new_output("display_data", data={"text/html": f"<script>{MARK}</script><b>bold</b>"}),
        nbformat.v4.new_output("display_data", data={"text/html": f'<img src="x" onerror="{MARK}">'}),
        nbformat.v4.new_output("display_data", data={"text/html": f'<iframe srcdoc="<script>parent.{MARK}</script>">'
                                                                  "</iframe>"}),
        nbformat.v4.new_output("display_data", data={"image/svg+xml": f'<svg xmlns="http://www.w3.org/2000/svg">'
                                                                      f"<script>{MARK}</script></svg>"}),
        nbformat.v4.new_output("execute_result", data={"text/html": f'<div onmouseover="{MARK}" '
                                                                    f'style="width:3000px;height:3000px">x</div>'},
                               execution_count=1),
    ]
    markdown = nbformat.v4.new_markdown_cell(f"<script>{MARK}</script>\n\n[link](javascript:{MARK})")
    nb.cells = [markdown, code]
    return nb


def feedback_page(inert: bool) -> str:
    """As nbgrader's GenerateFeedback renders it, with the course's feedback steps (grades given)."""
    loaded = PyFileConfigLoader("nbgrader_config.py", path=ROOT).load_config()
    steps = [s for s in loaded.GenerateFeedback.preprocessors  # all but the two that read a gradebook
             if not s.endswith(("GetGrades", "LateWorkNote"))]
    if not inert:
        steps = [s for s in steps if not s.endswith("InertOutputs")]
    import nbgrader
    formgrader = os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader")
    css = os.path.join(formgrader, "static", "node_modules", "bootstrap", "dist", "css")
    config = Config({"HTMLExporter": {"template_name": "feedback", "extra_template_paths": [css],
                                      "extra_template_basedirs": [os.path.join(formgrader, "templates")]}})
    exporter = (import_item(loaded.GenerateFeedback.exporter_class) if inert else HTMLExporter)(config=config)
    for step in steps:
        exporter.register_preprocessor(import_item(step)())  # as nbgrader registers them: enabled as they are
    resources = {"nbgrader": {"notebook": "hostile", "score": 0, "max_score": 1, "late_penalty": 0}}
    return exporter.from_notebook_node(hostile_notebook(), resources=resources)[0]


def formgrader_page(inert: bool) -> str:
    """As formgrader renders a submission in the instructor's lab: the exporter formgrader_pages puts in place."""
    from nbgrader.server_extensions.formgrader import handlers

    from autograder.workflow.pages.formgrader_pages import inert_exporter
    config = PyFileConfigLoader("jupyter_server_config.py", path=os.path.join(ROOT, "jupyter-config", "instructor")
                                ).load_config() if inert else Config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    exporter = inert_exporter(config) if inert else HTMLExporter(config=config)
    resources = {"assignment_id": "a", "notebook_id": "hostile", "submission_id": "s", "index": 0, "total": 1,
                 "base_url": "", "student": "hostile", "last_name": None, "first_name": None,
                 "notebook_path": "autograded/hostile/a/hostile.ipynb"}
    return exporter.from_notebook_node(hostile_notebook(), resources=resources)[0]


def marker_after_opening(path: str) -> list:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"file://{path}")
            page.mouse.move(100, 100)
            page.mouse.move(400, 600)
            page.wait_for_timeout(1500)
            return page.evaluate("() => [document.body.getAttribute('data-marker'), window.__marker || null]")
        finally:
            browser.close()


@pytest.mark.parametrize("render", [feedback_page, formgrader_page], ids=["feedback", "formgrader"])
def test_no_student_script_runs_in_the_page(tmp_path, render):
    inert, live = tmp_path / "inert.html", tmp_path / "live.html"
    inert.write_text(render(inert=True), encoding="utf-8")
    live.write_text(render(inert=False), encoding="utf-8")
    assert marker_after_opening(str(live)) != [None, None], "the control page should have run the script"
    assert marker_after_opening(str(inert)) == [None, None]
    assert "bold" in inert.read_text(encoding="utf-8")  # plain HTML still shows
