"""Two JupyterLabs: the student's shows no instructor tools, the instructor's shows them all.

Each lab is started as `make lab` and `make instructor-lab` start it, with its folder of
jupyter-config/ first on JUPYTER_CONFIG_PATH, on a free loopback port with a temporary home. In the
student's lab the Nbgrader menu, Formgrader, Create Assignment and the course list are gone (from the
page and from the server) while the Validate button stays (the course's, on nbgrader's validation); in the instructor's they are all
there, and saving a source notebook rewrites its lesson script.
"""
import json
import os
import shutil
import subprocess
import urllib.error
import urllib.request

import nbformat
import pytest

from autograder.authoring.lesson_writer import write

from .chromium import launched, require_browser
from .jupyterlab_server import CONFIG, lab_as

pytestmark = pytest.mark.browser

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LESSON = "02_backward"
NOTEBOOK = f"{LESSON}/{LESSON}.ipynb"

require_browser()
from playwright.sync_api import expect  # noqa: E402

MENU_LABELS = "() => [...document.querySelectorAll('#jp-MainMenu .lm-MenuBar-itemLabel')].map(e => e.textContent)"
SIDEBAR_TABS = "() => [...document.querySelectorAll('.jp-SideBar .lm-TabBar-tab')].map(e => e.title || e.textContent)"
# nbgrader's lab plugins, and whether each is running (window.jupyterapp: expose_app_in_browser).
NBGRADER_PLUGINS = """() => Object.fromEntries(window.jupyterapp.listPlugins()
    .filter(id => id.startsWith('@jupyter/nbgrader:')).map(id => [id, window.jupyterapp.isPluginActivated(id)]))"""
HAS_COMMAND = "command => window.jupyterapp.commands.hasCommand(command)"
INSTRUCTOR_COMMANDS = ("nbgrader:open-formgrader", "nbgrader:open-create-assignment", "nbgrader:open-course-list",
                       "nbgrader:open-assignment-list")


def http_status(lab, path: str) -> int:
    request = urllib.request.Request(f"{lab.url}{path}", headers={"Authorization": f"token {lab.token}"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


@pytest.fixture(scope="module")
def browser():
    with launched() as chromium:
        yield chromium


@pytest.fixture(scope="module")
def student_lab():
    with lab_as("student", os.path.join(ROOT, "release")) as running:
        yield running


@pytest.fixture(scope="module")
def instructor_lab(tmp_path_factory):
    """The repository root as the instructor serves it, cut down to one lesson."""
    course = tmp_path_factory.mktemp("course")
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), course)
    shutil.copytree(os.path.join(ROOT, "source", LESSON), course / "source" / LESSON,
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
    with lab_as("instructor", str(course)) as running:
        yield running


def open_notebook(browser, lab, path: str):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.set_default_timeout(60_000)
    page.goto(lab.notebook_url(path))
    page.locator(".jp-NotebookPanel-toolbar").wait_for()
    page.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text="File").wait_for()
    page.wait_for_timeout(1500)  # plugins add their menus and side panels once the app has started
    return page


def test_student_lab_has_no_instructor_tools(browser, student_lab):
    page = open_notebook(browser, student_lab, NOTEBOOK)
    try:
        menus = page.evaluate(MENU_LABELS)
        assert "Run" in menus and "Nbgrader" not in menus, menus
        assert not any("Create Assignment" in tab for tab in page.evaluate(SIDEBAR_TABS))
        expect(page.locator(".jp-NotebookPanel-toolbar .validate-button")).to_have_text("Validate")
        assert not any(page.evaluate(NBGRADER_PLUGINS).values())  # Validate is the course's (autograd-course:validate)
        assert page.evaluate("() => window.jupyterapp.isPluginActivated('autograd-course:validate')")
        assert not any(page.evaluate(HAS_COMMAND, command) for command in INSTRUCTOR_COMMANDS)
    finally:
        page.close()
    assert http_status(student_lab, "/formgrader") == 404
    assert http_status(student_lab, "/formgraders") == 404          # the course list
    assert http_status(student_lab, "/assignments") == 404          # the assignment list
    assert http_status(student_lab, "/nbgrader_version?version=0.9.6") == 200  # Validate's server side


def test_instructor_lab_has_formgrader_and_create_assignment(browser, instructor_lab):
    page = open_notebook(browser, instructor_lab, f"source/{NOTEBOOK}")
    try:
        menus = page.evaluate(MENU_LABELS)
        assert "Nbgrader" in menus, menus
        assert all(page.evaluate(NBGRADER_PLUGINS).values())
        assert all(page.evaluate(HAS_COMMAND, command) for command in INSTRUCTOR_COMMANDS)
        expect(page.locator(".jp-SideBar .lm-TabBar-tab[title='Nbgrader Create Assignment']")).to_have_count(1)
        page.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text="Nbgrader").click()
        expect(page.get_by_role("menuitem", name="Formgrader", exact=True)).to_be_visible()
        expect(page.get_by_role("menuitem", name="Course List", exact=True)).to_be_visible()
    finally:
        page.close()
    assert http_status(instructor_lab, "/formgrader") == 200


def _contents(lab, path: str, model: dict | None = None) -> dict:
    """GET, or PUT (a save, as JupyterLab's Save does), one file through Jupyter's contents API."""
    request = urllib.request.Request(
        f"{lab.url}/api/contents/{path}", method="PUT" if model else "GET",
        data=json.dumps(model).encode() if model else None,
        headers={"Authorization": f"token {lab.token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return json.loads(response.read())


def test_saving_a_source_notebook_rewrites_its_lesson_script(instructor_lab):
    path = f"source/{NOTEBOOK}"
    script = os.path.join(instructor_lab.root_dir, "source", LESSON, f"{LESSON}.py")
    model = _contents(instructor_lab, path)
    notebook = nbformat.from_dict(model["content"])
    notebook.cells[0].source += "\n\nA sentence added in JupyterLab."
    _contents(instructor_lab, path, {"type": "notebook", "format": "json", "content": notebook})
    text = open(script, encoding="utf-8").read()
    assert "# A sentence added in JupyterLab.\n" in text
    assert text == write(nbformat.read(os.path.join(instructor_lab.root_dir, path), as_version=4))


@pytest.mark.parametrize("target, mode", [("lab", "student"), ("instructor-lab", "instructor")])
def test_make_targets_use_their_config_for_that_command_only(target, mode):
    dry_run = subprocess.run(["make", "-n", "--no-print-directory", target], cwd=ROOT, capture_output=True,
                             text=True, check=True).stdout
    command = next(line for line in dry_run.splitlines() if "jupyter lab" in line)
    assert f"JUPYTER_CONFIG_PATH={os.path.join(CONFIG, mode)}" in command
    assert "JUPYTER_CONFIG_DIR" not in dry_run and "jupyter labextension" not in dry_run \
        and "server extension" not in dry_run  # nothing enabled or disabled for good
