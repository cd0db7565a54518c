"""A class on a real JupyterHub, end to end: release, fetch, submit, collect, grade, feedback, fetch feedback.

One instructor and two students are real system accounts (useradd); the hub is hub/jupyterhub_config.py
on loopback, each user's JupyterLab started as that user; students' servers run the student
environment built from binder/. Chromium logs each student in and works the Assignments tab: fetch the
lesson, submit (one solved, one blank), later fetch the feedback and open it. The instructor's steps
run as the instructor's account, as commands in their hub terminal would. Between them the test checks
what each account could not see: a classmate's server, submission, cache and feedback, the
instructor's course directory, and a submission made in a classmate's name (`nbgrader submit
--student`), which collect refuses. Screenshots go to test-artifacts/hub/.
"""
import glob
import os
import re

import nbformat
import pytest

from autograder.authoring.wrong_answers import build_submission, solution_cells
from conftest import ROOT
from lesson_solutions import source_notebook
from shared_student_env import shared_student_env

from .chromium import launched, require_browser
from .class_hub import cannot_make_users, class_hub

pytestmark = pytest.mark.browser
LESSON = "04_zero_grad"
SHOTS = os.path.join(ROOT, "test-artifacts", "hub")
SCORE = re.compile(r"\(Score: ([\d.]+) / ([\d.]+)\)")

require_browser()
if cannot_make_users() and os.environ.get("CI") and os.geteuid() == 0:
    pytest.fail(f"the class hub test cannot run on CI: {cannot_make_users()}", pytrace=False)
if cannot_make_users():
    pytest.skip(f"the class hub test cannot run here: {cannot_make_users()}", allow_module_level=True)
from playwright.sync_api import expect  # noqa: E402

expect.set_options(timeout=60_000)  # a fetch or submit on a loaded two-core machine


def _ok(done) -> str:
    assert done.returncode == 0, f"{done.args} exited {done.returncode}:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    with class_hub(shared_student_env(tmp_path_factory)) as running:
        course = running.room.course_path()
        instructor = running.room.instructor
        _ok(running.run_as(instructor, "autograd-course", "release", LESSON, cwd=course))
        _ok(running.run_as(instructor, "nbgrader", "release_assignment", LESSON, cwd=course))
        yield running


@pytest.fixture(scope="module")
def browser():
    os.makedirs(SHOTS, exist_ok=True)
    with launched() as chromium:
        yield chromium


def log_in(browser, hub, user: str):
    """A student's own browser: the hub's login page, their password, their JupyterLab."""
    context = browser.new_context(viewport={"width": 1400, "height": 900})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{hub.url}hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", hub.passwords[user])
    page.click("#login_submit")
    try:  # the hub spawns the student's server first (its start_timeout is 120 s)
        page.wait_for_url(re.compile(rf"/user/{user}/lab"), wait_until="commit", timeout=240_000)
    except Exception:
        page.screenshot(path=os.path.join(SHOTS, f"failed-login-{user}.png"))
        raise AssertionError(f"{user} never reached their JupyterLab (at {page.url}); the hub's log:\n"
                             + open(hub.log_path, errors="replace").read()[-4000:]) from None
    page.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text="Nbgrader").wait_for()
    return page


def open_assignments(page):
    page.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text="Nbgrader").click()
    page.get_by_role("menuitem", name="Assignment List", exact=True).click()
    page.locator("#released_assignments_list, #fetched_assignments_list").first.wait_for()
    return page


def row(page, listing: str):
    return page.locator(f"#{listing}_assignments_list .list_item:not(.nested_list_item)", has_text=LESSON)


def solve(hub, user: str) -> None:
    """The student's answers typed into their fetched copy: the source notebook's solution cells."""
    path = os.path.join(os.path.expanduser(f"~{user}"), LESSON, f"{LESSON}.ipynb")
    fetched = nbformat.read(path, as_version=4)
    nbformat.write(build_submission(fetched, solution_cells(source_notebook(LESSON))), path)
    account = os.stat(os.path.dirname(path))
    os.chown(path, account.st_uid, account.st_gid)


def fetch_and_submit(browser, hub) -> dict:
    """Each student logs in and fetches the lesson; the solver's copy gets the answers; both submit."""
    solver, blank = hub.room.students
    pages = {}
    for user in (solver, blank):
        page = open_assignments(log_in(browser, hub, user))
        row(page, "released").get_by_role("button", name="Fetch").click()
        expect(row(page, "fetched")).to_be_visible()
        page.screenshot(path=os.path.join(SHOTS, f"1-fetched-{role(hub, user)}.png"))
        pages[user] = page
    solve(hub, solver)
    notebook = pages[solver].context.new_page()
    notebook.goto(f"{hub.url}user/{solver}/lab/tree/{LESSON}/{LESSON}.ipynb")
    notebook.locator(".jp-NotebookPanel-toolbar").wait_for(timeout=120_000)
    expect(notebook.locator(".jp-Cell").first).to_be_visible()
    notebook.screenshot(path=os.path.join(SHOTS, "2-solved-notebook.png"))
    notebook.close()
    for user, page in pages.items():
        row(page, "fetched").get_by_role("button", name="Submit").click()
        expect(row(page, "submitted")).to_be_visible()
    pages[blank].screenshot(path=os.path.join(SHOTS, "3-submitted-blank.png"))
    return pages


def role(hub, user: str) -> str:
    return "solver" if user == hub.room.students[0] else "blank"


def instructors_week(hub) -> None:
    """collect (the forged submission refused), grade, feedback, release_feedback: as the instructor."""
    solver, blank = hub.room.students
    course, instructor = hub.room.course_path(), hub.room.instructor
    collected = hub.run_as(instructor, "autograd-course", "collect", "--exchange", cwd=course)
    print(collected.stdout)
    assert collected.returncode == 1, collected.stdout + collected.stderr  # the forged one is not placed
    assert f"placed {solver}/{LESSON}" in collected.stdout and f"placed {blank}/{LESSON}" in collected.stdout
    assert re.search(rf"NOT PLACED {solver}\+{LESSON}\+.*written by {blank}, not by {solver}'s own account",
                     collected.stdout)
    print(_ok(hub.run_as(instructor, "autograd-course", "grade", LESSON, cwd=course)))
    print(_ok(hub.run_as(instructor, "autograd-course", "feedback", LESSON, cwd=course)))
    _ok(hub.run_as(instructor, "nbgrader", "release_feedback", LESSON, cwd=course))


def fetch_feedback(hub, user: str, page) -> tuple[float, float]:
    """The student fetches their feedback in the Assignments tab and opens it: (score, out of)."""
    try:
        button = row(page, "submitted").get_by_role("button", name="Fetch Feedback").first
        for _ in range(3):  # the list asks the server again at each refresh; a loaded one may answer late
            page.locator("#refresh_assignments_list").click()
            expect(page.locator("#submitted_assignments_list_loading")).to_be_hidden()
            try:
                button.wait_for(timeout=30_000)
                break
            except Exception:
                continue
        button.click()
        expect(row(page, "submitted").get_by_text("(view feedback)").first).to_be_visible()
    except Exception:  # a timeout or a failed expectation: keep what the student saw
        page.screenshot(path=os.path.join(SHOTS, f"failed-feedback-{role(hub, user)}.png"))
        raise
    page.screenshot(path=os.path.join(SHOTS, f"4-feedback-fetched-{role(hub, user)}.png"))
    home = os.path.expanduser(f"~{user}")
    local, = glob.glob(os.path.join(home, LESSON, "feedback", "*", f"{LESSON}.html"))
    feedback = page.context.new_page()
    feedback.goto(f"{hub.url}user/{user}/files/{os.path.relpath(local, home)}")
    text = feedback.locator("body").inner_text()
    feedback.screenshot(path=os.path.join(SHOTS, f"5-feedback-{role(hub, user)}.png"))
    feedback.close()
    got, out_of = map(float, SCORE.search(text).groups())
    return got, out_of


def assert_classmate_out_of_reach(hub, page) -> None:
    """The blank student cannot open the solver's server, nor read their work, cache or grades."""
    solver, blank = hub.room.students
    other = page.context.new_page()
    response = other.goto(f"{hub.url}user/{solver}/lab")
    assert response.status == 403 and "You do not have permission" in other.content(), response.status
    other.screenshot(path=os.path.join(SHOTS, "6-classmates-server-refused.png"))
    other.close()
    exchange, course = os.path.join(hub.room.exchange, hub.room.course_id), hub.room.course_path()
    solver_home = os.path.expanduser(f"~{solver}")
    for attempt in (["ls", os.path.join(exchange, "inbound")],
                    ["ls", os.path.join(exchange, "feedback")],
                    ["cat", os.path.join(solver_home, LESSON, f"{LESSON}.ipynb")],
                    ["ls", os.path.join(solver_home, ".local", "share", "jupyter", "nbgrader_cache")],
                    ["cat", os.path.join(course, "submitted", solver, LESSON, f"{LESSON}.ipynb")],
                    ["cat", os.path.join(course, "autograded", solver, LESSON, f"{LESSON}.ipynb")],
                    ["cat", os.path.join(course, "feedback", solver, LESSON, f"{LESSON}.html")],
                    ["cat", os.path.join(course, "gradebook.db")],
                    ["ls", os.path.join(course, "source")]):
        done = hub.run_as(blank, *attempt)
        assert done.returncode != 0 and "Permission denied" in done.stderr, (attempt, done.stdout[:200])


def test_a_class_round_trip_on_the_hub(hub, browser):
    solver, blank = hub.room.students
    pages = fetch_and_submit(browser, hub)
    # The blank student hands in work in the solver's name: nbgrader lets them, collect must not.
    _ok(hub.run_as(blank, os.path.join(hub.room.student_env, "bin", "nbgrader"), "submit", LESSON, "--student", solver,
                   env={"JUPYTER_CONFIG_PATH": os.path.join(ROOT, "jupyter-config", "hub-student"),
                        "AUTOGRAD_COURSE_ID": hub.room.course_id}))
    instructors_week(hub)
    scores = {user: fetch_feedback(hub, user, page) for user, page in pages.items()}
    print("feedback scores:", scores)
    assert scores[blank][0] == 0 and scores[solver][0] > 0, scores
    assert_classmate_out_of_reach(hub, pages[blank])
    for page in pages.values():
        page.context.close()
