"""A week of a class on a real JupyterHub brought up by `make hub`, each person doing their own steps.

`make hub` runs as root in a fresh clone (tests/browser/class_hub.py). The instructor works in
Chromium: their JupyterLab opens on the course directory; the week's commands, read from docs/hub.md,
are typed into their JupyterLab terminal (a login shell of their account, nothing set up by the test);
Formgrader opens inside JupyterLab, lists lessons, students and submissions, and a written answer is
hand-graded there. Students work in Chromium: the first login opens on the Assignments tab; they
fetch; the blank one clicks Validate (in the Assignments tab and on the notebook's toolbar) and reads
what remains; both submit (one solved, one blank, which also submits in the classmate's name from its
terminal), fetch their feedback and open it with one click. Between them, each student's own login
shell finds nothing to read of the course, the classmates or the grader, and cannot rename a
classmate's submission away. Then a submission that hunts for the course directory from its kernel
scores 0 on the hub's grading service and leaves the course as it was. Screenshots go to
test-artifacts/hub/.
"""
import os
import pwd
import re

import nbformat
import pytest

from autograder.authoring.wrong_answers import build_submission, solution_cells
from conftest import ROOT
from lesson_solutions import source_notebook
from shared_student_env import shared_hub_prefix

from .chromium import launched, require_browser
from .class_hub import cannot_make_users, class_hub, classroom
from .hub_people import Terminal, choose, log_in, shot

pytestmark = pytest.mark.browser
GUIDE = os.path.join(ROOT, "docs", "hub.md")
SCORE = re.compile(r"\(Score: ([\d.]+) / ([\d.]+)\)")

require_browser()
if cannot_make_users() and os.environ.get("CI") and os.geteuid() == 0:
    pytest.fail(f"the class hub test cannot run on CI: {cannot_make_users()}", pytrace=False)
if cannot_make_users():
    pytest.skip(f"the class hub test cannot run here: {cannot_make_users()}", allow_module_level=True)
from playwright.sync_api import expect  # noqa: E402

expect.set_options(timeout=60_000)  # a fetch or submit on a loaded two-core machine


def week_on_the_hub() -> list[list[str]]:
    """docs/hub.md's week, as typed there: its commands, in the runs between the students' turns (# lines)."""
    with open(GUIDE, encoding="utf-8") as handle:
        block = handle.read().split("**The week on the hub**", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    runs = [[]]
    for line in block.splitlines():
        if line.lstrip().startswith("#"):
            runs.append([])
        elif line.strip():
            runs[-1].append(re.sub(r"\s+#.*$", "", line).strip())
    return runs


WEEK = week_on_the_hub()
LESSON = WEEK[0][0].split()[-1]  # `autograd-course release 02_backward`
WRITTEN = "why_scalar"  # its written answer


@pytest.fixture(scope="module")
def hub():
    with class_hub(shared_hub_prefix()) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with launched() as chromium:
        yield chromium


def made_by_make_hub(hub) -> None:
    """What `make hub` said it did and checked, as its output shows it."""
    with open(hub.log_path, errors="replace") as handle:
        said = handle.read()
    first = hub.room.students[0]
    assert f"Checked as {first}: no student can read this checkout's source/ or autograder/" in said, said[-3000:]
    assert "This checkout is now closed to other accounts" in said and "chmod" not in said
    assert f"The exchange: {hub.room.exchange}/{hub.room.course_id} (inbound 3733" in said


def row(page, listing: str):
    return page.locator(f"#{listing}_assignments_list .list_item:not(.nested_list_item)", has_text=LESSON)


def student_fetches(browser, hub, user: str):
    """The first login opens on the Assignments tab (where to start); the student fetches the lesson."""
    page = log_in(browser, hub, user)
    expect(row(page, "released").get_by_role("button", name="Fetch")).to_be_visible()
    shot(page, f"2-first-login-{role(hub, user)}")
    row(page, "released").get_by_role("button", name="Fetch").click()
    expect(row(page, "fetched")).to_be_visible()
    return page


def validation_results(page):
    dialog = page.locator(".jp-Dialog")
    expect(dialog.get_by_text("Validation Results")).to_be_visible(timeout=300_000)  # the whole lesson runs first
    return dialog


def validate_says_what_remains(page) -> None:
    """The blank student clicks Validate by the lesson's notebook in the Assignments tab: the core has not
    passed, each of its exercises named with what to do, and the optional sections still open, by name.
    Then they open the notebook from there and click the toolbar's Validate, which says the same."""
    row(page, "fetched").locator(".assignment-notebooks-link").click()
    notebook = page.locator("#fetched_assignments_list .nested_list_item", has_text=LESSON)
    notebook.get_by_role("button", name="Validate").click()
    dialog = validation_results(page)
    expect(dialog).to_contain_text("The core has not passed yet: 0 of 2 exercises correct.")
    expect(dialog).to_contain_text("Exercise 1: a gradient with backward() (grad_via_backward): not attempted yet. "
                                   "grad_via_backward still raises NotImplementedError. Replace the raise "
                                   "NotImplementedError() line with your code")
    expect(dialog).to_contain_text("Going further (optional): 5 sections still open.")
    expect(dialog.locator("li", has_text="7. gradient= is a vector-Jacobian product")).to_have_text(
        "7. gradient= is a vector-Jacobian product: Exercise 3 (vjp) not attempted yet, the written answer not "
        "answered yet.")
    for text in ("failed", "Traceback", "following cell"):
        expect(dialog).not_to_contain_text(text)
    shot(page, "3-validate-blank")
    dialog.get_by_role("button", name="Ok").click()

    notebook.locator("a", has_text=LESSON).click()
    page.locator(".jp-NotebookPanel:visible .jp-NotebookPanel-toolbar .validate-button").get_by_text("Validate").click()
    dialog = validation_results(page)
    expect(dialog).to_contain_text("The core has not passed yet: 0 of 2 exercises correct.")
    expect(dialog).to_contain_text("Going further (optional): 5 sections still open.")
    dialog.get_by_role("button", name="Ok").click()
    page.locator(".lm-TabBar-tab", has_text="Assignments").click()  # back to the Assignments tab, to submit


def role(hub, user: str) -> str:
    return "solver" if user == hub.room.students[0] else "blank"


def solve(hub, user: str) -> None:
    """The student's answers typed into their fetched copy: the source notebook's solution cells."""
    path = os.path.join(os.path.expanduser(f"~{user}"), LESSON, f"{LESSON}.ipynb")
    fetched = nbformat.read(path, as_version=4)
    solved = build_submission(fetched, solution_cells(source_notebook(LESSON)))
    for cell in solved.cells:  # and the written answer, which the instructor grades by hand
        if cell.metadata.get("nbgrader", {}).get("grade_id") == WRITTEN:
            cell.source = ("backward() needs one number to start from: for a vector output it would need a whole "
                           "Jacobian. gradient= gives the vector v, and backward computes v^T J instead.")
    nbformat.write(solved, path)
    account = os.stat(os.path.dirname(path))
    os.chown(path, account.st_uid, account.st_gid)


def hand_grade_in_formgrader(page, hub, student: str, grade_id: str, points: str) -> None:
    """Nbgrader > Formgrader in the instructor's JupyterLab: lessons and students listed, one written
    answer given its points, which the student's page then counts."""
    choose(page, "Nbgrader", "Formgrader")
    formgrader = page.frame_locator("#formgrader iframe")
    lessons = formgrader.locator("tr", has_text=LESSON)
    expect(lessons.first).to_be_visible()
    shot(page, "4-formgrader-lessons")
    formgrader.get_by_role("link", name="Manage Students").click()
    for user in hub.room.students:
        expect(formgrader.locator("tr", has_text=user)).to_be_visible()
    shot(page, "5-formgrader-students")
    formgrader.locator("tr", has_text=student).get_by_role("link").first.click()
    formgrader.get_by_role("link", name=LESSON).first.click()
    formgrader.locator("a[href*='/formgrader/submissions/']").first.click()
    score = formgrader.locator(f"input.score#{grade_id}")
    with page.expect_response(lambda r: "/api/grade/" in r.url and r.request.method != "GET") as saved:
        score.click()
        page.keyboard.type(points)
        page.keyboard.press("Tab")  # formgrader saves a score when its box loses the focus
    assert saved.value.ok, saved.value.status
    shot(page, "6-formgrader-hand-graded")
    formgrader.get_by_role("link", name="Manual Grading").first.click()  # the grading page's way back
    formgrader.get_by_role("link", name="Manage Students").first.click()
    formgrader.locator("tr", has_text=student).get_by_role("link").first.click()
    expect(formgrader.locator("tr", has_text=LESSON)).to_contain_text(f"{points} / {points}")


def fetch_feedback(hub, user: str, page) -> tuple[float, float]:
    """The student fetches their feedback in the Assignments tab and opens it with one click: (score, out of)."""
    choose(page, "Nbgrader", "Assignment List")
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
    row(page, "submitted").get_by_text("(view feedback)").first.click()
    viewer = page.locator(".jp-HTMLViewer iframe").last
    expect(viewer).to_be_visible()
    text = viewer.content_frame.locator("body")
    expect(text).to_contain_text("Score:")
    shot(page, f"8-feedback-{role(hub, user)}")
    got, out_of = map(float, SCORE.search(text.inner_text()).groups())
    return got, out_of


def nothing_of_others_within_reach(hub, page) -> None:
    """The blank student: no classmate's server, and in their own login shell nothing of the classmate, the
    course, the checkout or the grader to read, and no classmate's submission to rename away."""
    solver, blank = hub.room.students
    other = page.context.new_page()
    response = other.goto(f"{hub.url}user/{solver}/lab")
    assert response.status == 403 and "You do not have permission" in other.content(), response.status
    shot(other, "9-classmates-server-refused")
    other.close()
    exchange, course = os.path.join(hub.room.exchange, hub.room.course_id), hub.room.course_path()
    solver_home = os.path.expanduser(f"~{solver}")
    grader, = [os.path.join(root, "autograder") for root, dirs, _ in os.walk(hub.room.instructor_env)
               if "autograder" in dirs and root.endswith("site-packages")]
    for attempt in (f"ls {exchange}/inbound", f"ls {exchange}/feedback",
                    f"cat {solver_home}/{LESSON}/{LESSON}.ipynb",
                    f"ls {solver_home}/.local/share/jupyter/nbgrader_cache",
                    f"cat {course}/submitted/{solver}/{LESSON}/{LESSON}.ipynb",
                    f"cat {course}/gradebook.db", f"ls {course}/source",
                    f"grep -r solution {hub.checkout}/source/{LESSON}", f"ls {hub.checkout}/autograder",
                    f"ls {grader}", f"{hub.room.instructor_env}/bin/python -c 'import autograder.cli'"):
        done = hub.run_as(blank, attempt)
        assert done.returncode != 0 and re.search("Permission denied|No module named 'autograder.cli'", done.stderr), \
            (attempt, done.stdout[:300], done.stderr[:300])
    solver_uid = pwd.getpwnam(solver).pw_uid  # the solver's own, not the one handed in in their name
    solvers = [name for name in os.listdir(os.path.join(exchange, "inbound")) if name.startswith(f"{solver}+")
               and os.stat(os.path.join(exchange, "inbound", name)).st_uid == solver_uid]
    assert solvers, "the solver's submission is in inbound/"
    moved = hub.run_as(blank, f"mv '{exchange}/inbound/{solvers[0]}' '{exchange}/inbound/{blank}+gone'")
    assert moved.returncode != 0 and "Operation not permitted" in moved.stderr, (moved.stdout, moved.stderr)
    assert os.path.isdir(os.path.join(exchange, "inbound", solvers[0]))


def test_a_week_of_class_on_the_hub(hub, browser):
    solver, blank = hub.room.students
    made_by_make_hub(hub)
    teacher = log_in(browser, hub, hub.room.instructor)
    expect(teacher.locator(".jp-DirListing-item", has_text="nbgrader_config.py")).to_be_visible()
    expect(teacher.locator(".jp-DirListing-item", has_text="source")).to_be_visible()
    shot(teacher, "0-instructor-on-the-course")
    terminal = Terminal(teacher)
    for command in WEEK[0]:  # the lesson into release/, the gradebook and the exchange
        said = terminal.run(command)
        assert "command not found" not in said and "Traceback" not in said, (command, said)
    assert os.path.isdir(os.path.join(hub.room.exchange, hub.room.course_id, "outbound", LESSON))
    shot(teacher, "1-instructor-released")

    pages = {user: student_fetches(browser, hub, user) for user in (solver, blank)}
    solve(hub, solver)
    validate_says_what_remains(pages[blank])
    for user, page in pages.items():
        row(page, "fetched").get_by_role("button", name="Submit").click()
        expect(row(page, "submitted")).to_be_visible()
    shot(pages[blank], "3-submitted-blank")
    forged = Terminal(pages[blank]).run(f"nbgrader submit {LESSON} --student {solver}")  # in the classmate's name
    assert "Submitted as:" in forged, forged

    collect, grade = (terminal.run(command) for command in WEEK[1])
    assert f"placed {solver}/{LESSON}" in collect and f"placed {blank}/{LESSON}" in collect, collect
    unwrapped = collect.replace("\n", "")  # the terminal's rows, a long line wrapped over several
    assert re.search(rf"NOT PLACED {solver}\+{LESSON}\+.*written by {blank}, not by {solver}'s own account",
                     unwrapped), collect
    assert "graded 2, failed 0" in grade, grade
    hand_grade_in_formgrader(teacher, hub, solver, WRITTEN, "2")
    for command in WEEK[2]:  # feedback pages, and into the exchange
        said = terminal.run(command)
        assert "command not found" not in said and "Traceback" not in said, (command, said)
    shot(teacher, "7-instructor-feedback-released")

    scores = {user: fetch_feedback(hub, user, pages[user]) for user in (solver, blank)}
    print("feedback scores:", scores)
    assert scores[solver][0] == scores[solver][1] > 0 and scores[blank][0] == 0, scores
    nothing_of_others_within_reach(hub, pages[blank])


HUNT = '''import glob, json, os
# A cheat's cell: find the course's source/ from inside the kernel, run its solution cells.
places = set()
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        places.add(os.readlink(f"/proc/{pid}/cwd"))
    except OSError:
        pass
for guess in ("/home/*/autograd-course", "/home/*/*", "/root/*", "/tmp/*/autograd-course", "/opt/*", "/srv/*", "..", "../.."):
    places.update(glob.glob(guess))
for place in sorted(places):
    for notebook in glob.glob(os.path.join(place, "source", "*", "*.ipynb")):
        try:
            for cell in json.load(open(notebook))["cells"]:
                if cell.get("metadata", {}).get("nbgrader", {}).get("solution"):
                    exec("".join(cell["source"]), globals())
            open(os.path.join(place, "hunted.txt"), "w").write("found")
        except Exception:
            pass
'''


def snapshot(folder: str) -> dict[str, bytes]:
    found = {}
    for root, _, files in os.walk(folder):
        for name in files:
            with open(os.path.join(root, name), "rb") as handle:
                found[os.path.relpath(os.path.join(root, name), folder)] = handle.read()
    return found


def test_a_submission_hunting_for_the_course_scores_0_on_the_hub(hub, browser):
    """After the week: the blank student hands in a notebook whose first cell hunts for the course directory
    (/proc's working folders, its parent's, guessed paths) and runs source/'s solution cells; the hub's
    grading boxes its kernel, so it finds nothing, scores 0, and the course directory is as it was."""
    if not classroom.grading_service(hub.room):
        pytest.skip("the grading service (autograd-course grading-service) is not in this checkout yet")
    solver, hunter = hub.room.students
    course = hub.room.course_path()
    before = {name: snapshot(os.path.join(course, name)) for name in ("source", "release")}
    path = os.path.join(os.path.expanduser(f"~{hunter}"), LESSON, f"{LESSON}.ipynb")
    notebook = nbformat.read(path, as_version=4)
    notebook.cells.insert(0, nbformat.v4.new_code_cell(HUNT))
    nbformat.write(notebook, path)
    account = os.stat(os.path.dirname(path))
    os.chown(path, account.st_uid, account.st_gid)
    page = log_in(browser, hub, hunter)
    choose(page, "Nbgrader", "Assignment List")
    row(page, "fetched").get_by_role("button", name="Submit").click()
    expect(row(page, "submitted").first).to_be_visible()
    teacher = log_in(browser, hub, hub.room.instructor)
    terminal = Terminal(teacher)
    collect, grade = (terminal.run(command) for command in WEEK[1])
    assert f"placed {hunter}/{LESSON}" in collect, collect
    shot(teacher, "10-hunting-submission-graded")
    said = terminal.run(WEEK[2][0])  # autograd-course feedback
    with open(os.path.join(course, "feedback", hunter, LESSON, f"{LESSON}.html"), encoding="utf-8") as handle:
        got, out_of = map(float, SCORE.search(handle.read()).groups())
    assert got == 0, (got, out_of, grade, said)
    assert {name: snapshot(os.path.join(course, name)) for name in ("source", "release")} == before
    assert not os.path.exists(os.path.join(course, "hunted.txt"))
