"""Hostile submissions (tests/hostile/), graded the way instructors grade: one parallel batch, under load.

One batch, graded by ``autograd-course grade --workers 2`` in a scratch course: the plain solution
(the control), classmates' correct notebooks, the blank release and every hostile case, side by
side, with a secret in the grading command's environment, while other processes keep every core
busy (``Busy``, started here): a verdict must not depend on how loaded the machine is. A few are
graded again, with the machine left to itself, by plain ``nbgrader autograde`` (the same fence,
through TrustedExecute) and must get the same scores, and feedback is generated for all. Each case
must then get exactly what its EXPECT says (what it gets on a quiet machine): the batch finishes
within its limits, every classmate keeps full marks, a case earns only what it genuinely solved,
the instructor sees why, no file or grade is lost, nothing it started outlives grading, the
feedback shows none of the grader's code and takes nothing of the student's as markup, and the
class report reads only the grader's results.
"""
import glob
import hashlib
import html
import io
import os
import re
import subprocess
import sys
import threading
import time
from contextlib import redirect_stdout
from dataclasses import dataclass, field

import nbformat
import psutil
import pytest
from bs4 import BeautifulSoup

import course
from autograder import gradebook_scores
from autograder.authoring.release import generate_release
from autograder.workflow.pages import feedback_command
from autograder.authoring.prove import BLANK, SOLUTION, scratch_course
from autograder.authoring.wrong_answers import build_submission, solution_cells, write_submission
from autograder.cli import main
from conftest import ROOT
import plain_nbgrader
from hostile import ALL, LEAKED, MARKER, SECRET_NAME, load_cases

ASSIGNMENT = "02_backward"
NOTEBOOK = f"{ASSIGNMENT}.ipynb"
CASES = load_cases()
# graded twice, the second time quiet: the control, a cheat with partial points, a timeout, a dead kernel,
# the cases whose grading once depended on load, and those whose fields reach the pages
REGRADED = [SOLUTION, "hostile_rebinds_torch", "hostile_loop_in_function", "hostile_os_exit_in_cell",
            "hostile_links_beside_notebook", "hostile_forged_pictures", "hostile_busy_grader",
            "hostile_forged_prompts", "hostile_image_metadata", "hostile_cell_metadata"]
# their feedback is read here as markup (tests/browser/test_inert_pages.py opens such pages in Chromium)
PAGE_CASES = ["script_in_output", "javascript_link", "overlay_dialog", "image_metadata", "forged_prompts",
              "cell_metadata"]
BUSY_PER_CORE = 2  # other processes spinning on each core while the batch grades
CLASSMATES = ["classmate_1", "classmate_2", "classmate_3"]  # correct notebooks graded among the cases
NOTEBOOK_TIMEOUT = 180  # seconds per notebook in this batch (cells time out after 20 s: the batch shares its cores)
FAILURE = re.compile(rf"^could not grade (\S+) / {ASSIGNMENT}: (.*)$", re.MULTILINE)
# where a case's files must never appear (the grader's host, outside the submission's own folder)
HOST_FOLDERS = ["/tmp", "/var/tmp", "/dev/shm", "/run/lock", ROOT, os.path.dirname(course.__file__), sys.prefix]
# the grader's code, which feedback must never show
GRADER_CODE = ["BEGIN HIDDEN", "HIDDEN TESTS", "kernel_side import respond_each; respond_each("]


@dataclass
class Batch:
    root: str
    failures: dict                 # student -> the grading failure line
    totals: dict                   # student -> code score
    max_score: float
    scores: dict                   # student -> {grade_id: score}
    regraded: dict                 # student -> {grade_id: score}, second grading
    written: dict                  # student -> sha256 of the file handed in
    feedback_problems: dict
    processes: str                 # pgrep's listing of processes left with the marker
    leftovers: list = field(default_factory=list)
    seconds: float = 0.0
    graded_seconds: float = 0.0
    printed: str = ""              # what the grade command printed
    grader_peak: int = 0           # bytes: the largest grader-side process while the batch graded
    load: float = 0.0              # the machine's load average (1 min) when the batch was graded

    def autograded(self, student: str) -> str:
        return os.path.join(self.root, "autograded", student, ASSIGNMENT, NOTEBOOK)

    def submitted(self, student: str) -> str:
        return os.path.join(self.root, "submitted", student, ASSIGNMENT, NOTEBOOK)

    def feedback_dir(self, student: str) -> str:
        return os.path.join(self.root, "feedback", student, ASSIGNMENT)


class GraderMemory:
    """The peak resident memory of the grader's own processes (root: the command, its workers and their
    fork server, the warm parents) while a batch grades; kernels run as their own uids and are not counted."""

    def __init__(self):
        self.peak, self._stop = 0, threading.Event()

    def _watch(self):
        me = psutil.Process()
        while not self._stop.wait(0.05):
            for process in [me, *me.children(recursive=True)]:
                try:
                    if process.uids().real == 0:
                        self.peak = max(self.peak, process.memory_info().rss)
                except psutil.Error:
                    pass

    def __enter__(self):
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()


class Busy:
    """Other processes busy on every core while a batch grades (as on a machine shared with other work):
    plain Python loops at the grader's own priority, killed when the block ends."""

    def __init__(self, per_core: int):
        self.count = per_core * (os.cpu_count() or 1)

    def __enter__(self):
        self.spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(self.count)]
        return self

    def __exit__(self, *exc):
        self.load = os.getloadavg()[0]
        for process in self.spinning:
            process.kill()
            process.wait()


def _sha(text) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


def _file_text(built) -> str:
    """What prove_assignment writes for a built submission."""
    if isinstance(built, str):
        return built
    text = nbformat.writes(built)
    return text if text.endswith("\n") else text + "\n"


def _leftovers(course_root: str) -> list[str]:
    found = [p for folder in HOST_FOLDERS for p in glob.glob(os.path.join(folder, f"*{MARKER}*"))]
    found += [p for p in glob.glob(os.path.join(course_root, "**", f"*{MARKER}*"), recursive=True)]
    return sorted(set(found))


def _processes() -> str:
    listed = subprocess.run(["pgrep", "-af", MARKER], capture_output=True, text=True)
    return listed.stdout.strip()


def _write(course: str, student: str, built, links: dict) -> None:
    folder = os.path.join(course, "submitted", student, ASSIGNMENT)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, NOTEBOOK), "w", encoding="utf-8") as handle:
        handle.write(_file_text(built))
    for name, target in links.items():
        os.symlink(target, os.path.join(folder, name))


def _grade_in_parallel(root: str) -> tuple[dict, str]:
    """``autograd-course grade --workers 2``, with a secret in its environment; student -> failure
    line, and what it printed."""
    printed = io.StringIO()
    os.environ[SECRET_NAME] = "the grader's own secret"
    try:
        with redirect_stdout(printed):
            main(["--root", root, "grade", "--workers", "2"])
    finally:
        del os.environ[SECRET_NAME]
    print(printed.getvalue().splitlines()[-1] if printed.getvalue() else "")
    return dict(FAILURE.findall(printed.getvalue())), printed.getvalue()


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    started = time.monotonic()
    root = scratch_course(ROOT, str(tmp_path_factory.mktemp("hostile")), ASSIGNMENT, cell_timeout=20)
    with open(os.path.join(root, "nbgrader_config.py"), "a") as config:
        config.write(f"\nc.TrustedExecute.notebook_timeout = {NOTEBOOK_TIMEOUT}\n")
    generate_release(root, [ASSIGNMENT])
    release = nbformat.read(os.path.join(root, "release", ASSIGNMENT, NOTEBOOK), as_version=4)
    solutions = solution_cells(nbformat.read(os.path.join(root, "source", ASSIGNMENT, NOTEBOOK), as_version=4))
    for student in [SOLUTION, *CLASSMATES]:
        write_submission(root, student, ASSIGNMENT, NOTEBOOK, build_submission(release, solutions))
    write_submission(root, BLANK, ASSIGNMENT, NOTEBOOK, release)
    written = {}
    for case in CASES:
        built = case.build(release, solutions)
        _write(root, case.student, built, case.links)
        written[case.student] = _sha(_file_text(built))
    with GraderMemory() as memory, Busy(BUSY_PER_CORE) as busy:
        failures, printed = _grade_in_parallel(root)
    rows = {row["student"]: row for row in gradebook_scores.scores(root)}
    scores = {student: gradebook_scores.cell_scores(root, ASSIGNMENT, student) for student in rows}
    processes = _processes()  # right after grading: nothing a kernel started may still run
    leftovers = _leftovers(root)
    graded_at = time.monotonic()

    report = plain_nbgrader.autograde(root, ASSIGNMENT, [s for s in REGRADED if s in rows])
    regraded = {student: gradebook_scores.cell_scores(root, ASSIGNMENT, student) for student in report.graded}
    regraded_at = time.monotonic()
    stored = [s for s in sorted(rows) if os.path.exists(os.path.join(root, "autograded", s, ASSIGNMENT, NOTEBOOK))]
    feedback_problems = feedback_command.generate_feedback(root, ASSIGNMENT, stored)
    result = Batch(root, failures, {s: r["code_score"] for s, r in rows.items()},
                   rows[SOLUTION]["max_code_score"], scores, regraded, written, feedback_problems,
                   processes or _processes(), leftovers, time.monotonic() - started, graded_at - started,
                   printed, memory.peak, busy.load)
    print(f"\nhostile batch: {len(rows)} submissions graded in {graded_at - started:.0f} s beside {busy.count} busy "
          f"processes (load {busy.load:.1f}), {len(regraded)} regraded quiet in {regraded_at - graded_at:.0f} s, "
          f"feedback in {time.monotonic() - regraded_at:.0f} s")
    for case in CASES:
        got = result.failures.get(case.student) or f"{result.totals.get(case.student)}/{result.max_score:g}"
        print(f"  {case.kind:18s} {case.name:26s} {got}")
    print(f"  the grader's largest process at its peak: {result.grader_peak / 1024**3:.2f} GiB")
    print("  classmates (graded beside them):", ", ".join(f"{s} {result.totals.get(s)}/{result.max_score:g}"
                                                         for s in [SOLUTION, *CLASSMATES]))
    yield result
    for path in _leftovers(root):  # what a hole let through must not outlive the test
        if os.path.isfile(path) or os.path.islink(path):
            os.remove(path)
    if result.processes:
        for line in result.processes.splitlines():
            subprocess.run(["kill", "-9", line.split()[0]], capture_output=True)


def _outputs_text(notebook, cell_id: str | None = None) -> str:
    parts = []
    for cell in notebook.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if cell_id is not None and cell_id not in (cell.get("id"), grade_id):  # a restored cell has a new id
            continue
        for out in cell.get("outputs", []):
            parts += [str(out.get("ename", "")), str(out.get("evalue", "")), "\n".join(out.get("traceback", [])),
                      str(out.get("text", ""))]
            parts += [str(v) for k, v in out.get("data", {}).items() if k.startswith("text/")]
    return "\n".join(parts)


def _xfail_unless_fixed(case, test: str):
    if test in case.xfail:
        return pytest.param(case, marks=pytest.mark.xfail(strict=True, reason=case.xfail[test]), id=case.name)
    return pytest.param(case, id=case.name)


def test_control_keeps_full_marks_and_blank_scores_zero(batch):
    assert batch.max_score > 0
    assert batch.totals[SOLUTION] == batch.max_score
    assert batch.totals[BLANK] == 0


def test_every_classmate_keeps_full_marks(batch):
    for student in CLASSMATES:
        assert batch.scores[student] == batch.scores[SOLUTION], student
        assert batch.totals[student] == batch.max_score, student


def test_the_batch_finishes_within_its_limits(batch):
    """Two workers, each notebook capped: no case held its worker past its own notebook's limit."""
    assert batch.graded_seconds < NOTEBOOK_TIMEOUT * (len(batch.totals) / 2 + 1)


@pytest.mark.parametrize("case", PAGE_CASES)
def test_feedback_takes_nothing_of_the_students_as_markup(batch, case):
    """No script, handler, id, class or style of the student's in its feedback, every image boxed plain
    data, every cell's code shown (tests/browser/ opens such pages in Chromium)."""
    page = open(os.path.join(batch.feedback_dir(f"hostile_{case}"), f"{ASSIGNMENT}.html"), encoding="utf-8").read()
    soup = BeautifulSoup(page, "html.parser")
    assert not soup.find_all(["script", "svg", "iframe", "object", "embed"])
    assert not [(e.name, a) for e in soup.find_all(True) for a in e.attrs if a.lower().startswith("on")]
    assert not soup.find(id=re.compile("hostile")) and not soup.select(".modal, .navbar-fixed-top, .hidden")
    assert not [c for e in soup.find_all(class_=True) for c in e["class"] if c.startswith("celltag_")]
    for image in soup.select(".cell img"):
        assert image.find_parent(attrs={"data-student": True}) is not None
        assert set(image.attrs) <= {"src", "alt", "width", "height"}
        assert image.get("src", "data:image/").startswith("data:image/")
        assert all(image[size].isdigit() for size in ("width", "height") if size in image.attrs)
    assert soup.find(string="vjp") is not None  # the code of its vjp cell is shown
    if case == "script_in_output":
        assert "hostile-script-ran" in soup.get_text()  # the output is shown, as text


def test_batch_finishes_and_only_unreadable_files_are_refused(batch):
    refused = {case.student for case in CASES if not case.graded}
    known_holes = {case.student for case in CASES if "outcome" in case.xfail}
    assert refused <= set(batch.failures)
    assert set(batch.failures) - refused <= known_holes, "submissions that should have been graded were not"
    for case in CASES:
        if case.graded and case.student not in known_holes:
            assert case.student in batch.totals, f"{case.name}: no grade stored"
            assert os.path.isfile(batch.autograded(case.student)), f"{case.name}: no autograded notebook"


@pytest.mark.parametrize("case", [_xfail_unless_fixed(c, "outcome") for c in CASES])
def test_case_gets_what_it_earned_and_says_why(batch, case):
    # the file handed in is never lost or changed
    with open(batch.submitted(case.student), "rb") as handle:
        assert _sha(handle.read()) == batch.written[case.student], "the submitted file changed"
    if not case.graded:
        assert case.student not in batch.totals or batch.totals[case.student] == 0
        assert case.expect["reason"] in batch.failures[case.student]
        return
    full, earned = batch.scores[SOLUTION], batch.scores[case.student]
    tests = sorted(t for t in full if t.startswith("test_"))
    loses = tests if case.expect["loses"] == ALL else [f"test_{name}" for name in case.expect["loses"]]
    assert set(loses) <= set(tests), f"EXPECT names exercises the lesson does not have: {set(loses) - set(tests)}"
    assert set(earned) == set(full), "the graded cells differ from the control's"
    got = {t: earned[t] or 0 for t in tests}
    want = {t: 0 if t in loses else full[t] for t in tests}
    assert got == want
    notebook = nbformat.read(batch.autograded(case.student), as_version=4)
    shown = _outputs_text(notebook, case.expect.get("cell"))
    reasons = case.expect["reason"]  # one fragment, or a tuple of the forms it may take
    assert any(reason in shown for reason in (reasons if isinstance(reasons, tuple) else (reasons,))), shown
    assert "absent" not in case.expect or case.expect["absent"] not in shown
    assert LEAKED not in _outputs_text(notebook), "the sandbox let it see or reach something"


@pytest.mark.parametrize("case", [_xfail_unless_fixed(c, "leaves_nothing") for c in CASES if c.graded])
def test_case_leaves_nothing_outside_its_folder(batch, case):
    mine = [p for p in batch.leftovers if f"{MARKER}-{case.name}" in p]
    assert not mine, f"files left on the grader's host: {mine}"
    path = batch.autograded(case.student)
    assert os.path.isfile(path) and not os.path.islink(path), "the autograded notebook is not a plain file"
    assert case.student not in batch.feedback_problems, batch.feedback_problems.get(case.student)
    folder = batch.feedback_dir(case.student)
    assert sorted(os.listdir(folder)) == [f"{ASSIGNMENT}.html"], f"feedback holds more: {os.listdir(folder)}"


def _reference_lines() -> list[str]:
    """Distinctive lines of the grader's references: the answers' code."""
    folder = os.path.join(ROOT, "autograder", "grading", "judging", "references", "backward")
    lines = [line.strip() for path in sorted(glob.glob(os.path.join(folder, "*.py"))) for line in open(path, encoding="utf-8")]
    return [line for line in lines if len(line) >= 30 and not line.startswith(("#", "\"", "import", "from"))]


def test_feedback_shows_no_grader_code(batch):
    shown = {}
    for student in batch.totals:
        if not os.path.exists(batch.autograded(student)):
            continue  # not graded (a refused file, or a known hole): no feedback to show
        path = os.path.join(batch.feedback_dir(student), f"{ASSIGNMENT}.html")
        assert os.path.isfile(path), f"no feedback for {student}: {batch.feedback_problems.get(student)}"
        page = html.unescape(re.sub(r"<[^>]+>", "", open(path, encoding="utf-8").read()))
        found = [s for s in GRADER_CODE + _reference_lines() if s in page]
        if found:
            shown[student] = found
    assert not shown


def test_the_class_report_reads_only_the_graders_results(batch):
    """A cell's per-exercise result and timings are the grader's: cell_metadata's forged ones are not read."""
    from autograder.workflow.pages.report import read_autograded
    from hostile.cell_metadata import MARKUP
    results, runs, _ = read_autograded(batch.root, [ASSIGNMENT])
    graded = {t for t in batch.scores[SOLUTION] if t.startswith("test_")}
    mine = [r for r in results if r.student == "hostile_cell_metadata"]
    assert len(mine) == len(graded) and not [r for r in mine if MARKUP in r.message]
    assert max(run.seconds for run in runs) < NOTEBOOK_TIMEOUT


def test_no_process_outlives_grading(batch):
    assert batch.processes == "", f"processes left running:\n{batch.processes}"


def test_grading_twice_gives_the_same_scores(batch):
    """Under load by ``grade``, then quiet by plain ``nbgrader autograde``: the same scores."""
    assert set(batch.regraded) == set(REGRADED)
    for student, scores in batch.regraded.items():
        assert scores == batch.scores[student], student


GRADER_PEAK = 1.5 * 1024**3  # bytes; a socket flood once grew a worker to 4 GiB


def test_the_graders_memory_stays_bounded_whatever_a_kernel_sends(batch):
    """floods_sockets sends 100 MiB messages on every socket; the grader's processes stay small."""
    assert 0 < batch.grader_peak < GRADER_PEAK, f"{batch.grader_peak / 1024**3:.2f} GiB"


def _targets(batch, case) -> dict:
    """What each of the case's links would have given the grader: name -> bytes."""
    folder = os.path.dirname(batch.submitted(case.student))
    found = {}
    for name, target in case.links.items():
        path = os.path.join(folder, target) if not os.path.isabs(target) else target
        if os.path.isfile(path):
            found[name] = open(path, "rb").read()
    return found


@pytest.mark.parametrize("case", [pytest.param(c, id=c.name) for c in CASES if c.links])
def test_links_beside_a_notebook_are_left_out_on_both_paths(batch, case):
    """Nothing a link points at reaches autograded/ or feedback/ (graded by ours, then plain nbgrader's
    autograde, then feedback); the grade command names each link it left out."""
    targets = _targets(batch, case)
    assert len(targets) == len(case.links), "the links must resolve for the grader, or they prove nothing"
    for folder in (os.path.dirname(batch.autograded(case.student)), batch.feedback_dir(case.student)):
        for directory, _, names in os.walk(folder):
            for name in names:
                path = os.path.join(directory, name)
                assert not os.path.islink(path), path
                data = open(path, "rb").read()
                assert not [n for n, t in targets.items() if t == data], f"{path} holds a link's target"
    assert case.student in batch.regraded, "plain nbgrader autograde graded it too"
    left = next(line for line in batch.printed.splitlines() if line.startswith(f"left out of {case.student} /"))
    for name in case.links:
        assert f"{name} (a symbolic link)" in left
