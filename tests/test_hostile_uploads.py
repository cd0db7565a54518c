"""Hostile uploads (tests/hostile_uploads/), collected and graded the way instructors do it.

A scratch course of lesson 02_backward, the lesson released with `autograd-course release`, and:

1. The exchange, where this machine can make accounts (root): the lesson goes out with `nbgrader
   release_assignment`; each exchange student is a real account that fetches it, writes its answers
   and submits with nbgrader from the students' environment (built from binder/), in its login shell
   with what the hub's spawner gives it (hub/classroom.py). The honest students submit first; then
   the lesson's due date is set to that moment, and the cheats submit and play their tricks on their
   own submission folder.
2. Each LMS's download of the class (Canvas, Moodle, Blackboard, a folder per student): the honest
   classmates' uploads and every case of that LMS, collected by `autograd-course collect ... --roster`,
   and the exchange by `collect --exchange --roster`, as root (the instructor here, as in
   tests/test_lms_classes.py; the hub's instructor account is tests/browser/test_hub.py's).
3. One `autograd-course grade` batch; plain `nbgrader autograde` again on every case whose notebook
   reached submitted/; `feedback`, `export --roster` and `report --roster`.

Then every classmate keeps every point and their own notebook, each case gets what its EXPECT says
(graded as the notebook it names, or nothing placed; the reason on a collect line; late when it is),
every student is in every export, no line collect prints holds a control character or a forged
line, nothing lands outside the course, and plain nbgrader grades each placed case as we do.
"""
import csv
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import NamedTuple

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.authoring.prove import scratch_course
from autograder.authoring.wrong_answers import build_submission, solution_cells
from conftest import ROOT
from hostile_uploads import CLASSMATES, LESSON, MARKER, NOTEBOOK, Exchange, Kit, honest_files, load_cases

CASES = load_cases()
BIN = os.path.join(ROOT, ".venv", "bin")
HOST_FOLDERS = ["/tmp", "/var/tmp", "/dev/shm", ROOT]
DOWNLOADS = ("canvas", "moodle", "blackboard", "folders")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]")


def accounts_refused() -> str | None:
    """Why the exchange's students cannot be real accounts here, or None."""
    if not sys.platform.startswith("linux") or os.geteuid() != 0:
        return "making the exchange's student accounts (useradd) needs root on Linux"
    missing = [tool for tool in ("useradd", "userdel", "runuser", "mkfifo") if not shutil.which(tool)]
    return f"{', '.join(missing)} not installed" if missing else None


@dataclass
class Week:
    course: str
    out: dict = field(default_factory=dict)          # command -> CompletedProcess
    students: dict = field(default_factory=dict)     # case name -> its student id
    handed_in: dict = field(default_factory=dict)    # classmate -> the notebook they handed in
    scores: dict = field(default_factory=dict)       # student -> Score, after the batch
    regraded: dict = field(default_factory=dict)     # student -> Score, after plain nbgrader autograde
    leftovers: list = field(default_factory=list)
    no_exchange: str | None = None                   # why the exchange's cases did not run
    notebooks: dict = field(default_factory=dict)    # "solution", "blank" -> bytes

    def collected(self) -> str:
        return "\n".join(done.stdout for name, done in self.out.items() if name.startswith("collect"))


def _run(course: str, *args: str, tool: str = "autograd-course") -> subprocess.CompletedProcess:
    command = [os.path.join(BIN, tool), *(["--root", course] if tool == "autograd-course" else []), *args]
    done = subprocess.run(command, cwd=course, capture_output=True, text=True, timeout=1800)
    print(f"$ {tool} {' '.join(args)}\n{done.stdout[-6000:]}{done.stderr[-3000:]}")
    return done


def _zip(path: str, entries: dict) -> str:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries.items():
            archive.writestr(zipfile.ZipInfo(name, (2026, 3, 5, 18, 41, 0)), data)
    return path


def _download(lms: str, folder: str, entries: dict) -> str:
    if lms != "folders":
        return _zip(os.path.join(folder, f"{lms}.zip"), entries)
    top = os.path.join(folder, "folders")
    for name, data in entries.items():
        os.makedirs(os.path.dirname(os.path.join(top, name)), exist_ok=True)
        with open(os.path.join(top, name), "wb") as handle:
            handle.write(data)
    return top


class _ExchangeClass:
    """Real accounts submitting through nbgrader's exchange, as on the class hub."""

    def __init__(self, base: str, course: str, student_python: str):
        from system_accounts import make_account as _make_account
        sys.path.insert(0, os.path.join(ROOT, "hub"))
        import classroom  # the hub's own module: its folders and what its spawner gives a server
        self.tag, self.names, self.course = secrets.token_hex(3), [], course
        self._make = _make_account
        prefix = os.path.dirname(os.path.dirname(os.path.dirname(student_python)))  # <prefix>/student-env/bin/python
        self.room = classroom.Classroom(
            instructor="root", students=(), ip="127.0.0.1", port=0, state=os.path.join(base, "state"),
            prefix=prefix, course_dir=course, course_id="autograd-course", exchange=os.path.join(base, "exchange"))
        classroom.install_server_config(self.room)  # what the hub's students' servers are given, as make hub puts it
        self.classroom = classroom
        classroom.prepare_exchange(self.room)

    def account(self) -> str:
        name = f"agu{self.tag}{len(self.names)}"
        self.names.append(name)
        self._make(name)
        return name

    def as_student(self, user: str, script: str, stdin: bytes | None = None) -> subprocess.CompletedProcess:
        """``script`` in the student's login shell, with what the hub's spawner gives a student's server."""
        environment = self.classroom.server(self.room, user)["environment"]
        passed = {k: v for k, v in environment.items() if k != "PATH"}
        done = subprocess.run([shutil.which("runuser"), "-l", user, "-w", ",".join(passed), "-c",
                               f"export PATH={environment['PATH']}\n{script}"],
                              input=stdin, capture_output=True, env={**passed, "LANG": "C.UTF-8"}, timeout=600)
        print(f"[{user}] {script.strip()}\n{done.stdout.decode(errors='replace')}{done.stderr.decode(errors='replace')}")
        return done

    def submit(self, user: str, notebook: bytes, script: str = "") -> None:
        """Fetch the lesson, write the answers into it, submit; then ``script`` on the submission folder."""
        assert self.as_student(user, f"nbgrader fetch_assignment {LESSON}").returncode == 0
        assert self.as_student(user, f"cat > {LESSON}/{NOTEBOOK}", stdin=notebook).returncode == 0
        done = self.as_student(user, f"nbgrader submit {LESSON}")
        assert done.returncode == 0
        folder = re.search(r"Destination: (.*)", done.stderr.decode()).group(1).strip()
        if script:
            inbound = os.path.dirname(folder)
            done = self.as_student(user, f'FOLDER="{folder}"\nINBOUND="{inbound}"\nCOURSE="{self.course}"\n{script}')
            assert done.returncode == 0

    def close(self) -> None:
        from system_accounts import remove_account as _remove_account  # noqa: PLC0415
        for name in self.names:
            _remove_account(name)


def _notebooks(course: str) -> dict[str, bytes]:
    release = nbformat.read(os.path.join(course, "release", LESSON, NOTEBOOK), as_version=4)
    solutions = solution_cells(nbformat.read(os.path.join(course, "source", LESSON, NOTEBOOK), as_version=4))
    return {"solution": nbformat.writes(build_submission(release, solutions)).encode(),
            "blank": nbformat.writes(release).encode()}


def _roster(path: str, rows: list[dict]) -> str:
    columns = ["student_id", "name", "canvas_id", "moodle_id", "username", "login_id"]
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, columns)
        writer.writeheader()
        writer.writerows(rows)
    return path


class Score(NamedTuple):
    code: float        # the autograded points (the written answer waits for a person)
    max_code: float
    late: float        # seconds late, as nbgrader's late penalty saw them
    penalty: float     # points it took ("zero": all of them)
    total: float


def _gradebook_scores(course: str) -> dict[str, Score]:
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        return {s.student.id: Score(s.code_score, s.max_code_score, s.total_seconds_late,
                                    s.late_submission_penalty or 0.0, s.score)
                for s in gradebook.assignment_submissions(LESSON)}


def _leftovers(base: str, course: str) -> list[str]:
    found = [os.path.join(folder, name) for folder in HOST_FOLDERS for name in os.listdir(folder) if MARKER in name]
    for folder, _, names in os.walk(base):
        found += [os.path.join(folder, n) for n in names if MARKER in n and not folder.startswith(course + os.sep)]
    return sorted(found)


@pytest.fixture(scope="module")
def week(tmp_path_factory):
    # not under pytest's own folder, which only root may pass: the students reach the exchange in it
    base = tempfile.mkdtemp(prefix="autograd-hostile-uploads-")
    os.chmod(base, 0o711)  # the students pass through to the exchange in it, and list nothing
    course = scratch_course(ROOT, base, LESSON, cell_timeout=60)
    os.chmod(course, 0o700)  # the instructor's, as on the hub (hub/classroom.py)
    with open(os.path.join(course, "nbgrader_config.py"), "a", encoding="utf-8") as config:
        config.write(f'\nc.LateSubmissionPlugin.penalty_method = "zero"\n'
                     "c.LateWork.time_unknown_penalty = 1.0\n"  # an LMS's bare LATE costs what "zero" costs
                     f"c.Exchange.root = {os.path.join(base, 'exchange')!r}\n")
    week = Week(course)
    week.out["release"] = _run(course, "release", LESSON)
    week.notebooks = _notebooks(course)
    solution, blank = week.notebooks["solution"], week.notebooks["blank"]
    kits = {case.name: Kit(solution, blank, number, case.student, course)
            for number, case in enumerate(CASES, start=1) if case.lms != "exchange"}
    rows = [c.roster_row() for c in CLASSMATES] + [kit.roster_row() for kit in kits.values()]
    week.handed_in = {c.student_id: solution for c in CLASSMATES}
    exchange, due = None, None
    week.no_exchange = accounts_refused()
    try:
        if week.no_exchange is None:
            from system_accounts import python_reachable
            from shared_student_env import shared_student_env
            student_python = shared_student_env(tmp_path_factory)
            with python_reachable(os.path.realpath(student_python), student_python):
                exchange = _ExchangeClass(base, course, student_python)
                week.out["release_assignment"] = _run(course, "release_assignment", LESSON, tool="nbgrader")
                for _ in range(2):  # honest students, on time
                    honest = exchange.account()
                    exchange.submit(honest, solution)
                    week.handed_in[honest] = solution
                    rows.append({"student_id": honest, "name": honest, "login_id": honest})
                due = datetime.now(timezone.utc)
                time.sleep(1.5)  # what the cheats hand in arrives after the due date
                for number, case in enumerate(CASES, start=1):
                    if case.lms == "exchange":
                        user = exchange.account()
                        kits[case.name] = Kit(solution, blank, number, user, course)
                        built: Exchange = case.build(kits[case.name])
                        exchange.submit(user, built.notebook, built.script)
                        rows.append({"student_id": user, "name": user, "login_id": user})
        due = due or datetime.now(timezone.utc)
        with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
            gradebook.update_or_create_assignment(LESSON, duedate=due.replace(tzinfo=None))
        week.students = {name: kit.student for name, kit in kits.items()}
        roster = _roster(os.path.join(base, "roster.csv"), rows)
        for lms in DOWNLOADS:
            entries = {}
            for mate in CLASSMATES:
                entries.update(honest_files(mate, solution) if mate.lms == lms else {})
            for case in CASES:
                entries.update(case.build(kits[case.name]) if case.lms == lms else {})
            week.out[f"collect {lms}"] = _run(course, "collect", _download(lms, base, entries), "--roster", roster)
        if exchange is not None:
            week.out["collect exchange"] = _run(course, "collect", "--exchange", "--roster", roster)
        week.out["grade"] = _run(course, "grade")
        week.scores = _gradebook_scores(course)
        # plain nbgrader, once per kind of name: every case (and exchange student) whose notebook reached submitted/
        for pattern in ["hostile_*"] + ([f"agu{exchange.tag}*"] if exchange else []):
            week.out[f"nbgrader autograde {pattern}"] = _run(course, "autograde", LESSON, "--student", pattern,
                                                             "--force", tool="nbgrader")
        week.regraded = _gradebook_scores(course)
        week.out["feedback"] = _run(course, "feedback")
        week.out["export"] = _run(course, "export", "--roster", roster)
        week.out["report"] = _run(course, "report", "--roster", roster)
        week.leftovers = _leftovers(base, course)
        yield week
    finally:
        if exchange is not None:
            exchange.close()
        for path in _leftovers(base, course):  # what a hole let through must not outlive the test
            os.remove(path)
        shutil.rmtree(base, ignore_errors=True)


def _case(case):
    marks = [pytest.mark.skip(reason="needs the exchange's accounts")] if case.lms == "exchange" and accounts_refused() else []
    return pytest.param(case, id=case.name, marks=marks)


def _rows(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_every_command_finishes_and_says_why_it_left_what_it_left(week):
    for name, done in week.out.items():
        assert "Traceback" not in done.stderr, f"{name} crashed:\n{done.stderr[-3000:]}"
        expected = (0, 1) if name.startswith(("collect", "grade")) else (0,)
        assert done.returncode in expected, f"{name} exited {done.returncode}"


def test_every_classmate_keeps_every_point_and_their_own_notebook(week):
    for student, notebook in week.handed_in.items():
        with open(os.path.join(week.course, "submitted", student, LESSON, NOTEBOOK), "rb") as handle:
            assert handle.read() == notebook, f"{student}'s notebook in submitted/ is not the one they handed in"
        score = week.scores[student]
        assert score.code == score.max_code > 0 and score.late == 0 and score.penalty == 0, (student, score)


@pytest.mark.parametrize("case", [_case(c) for c in CASES])
def test_case_is_its_students_alone_or_refused_with_its_reason(week, case):
    student = week.students[case.name]
    target = os.path.join(week.course, "submitted", student, LESSON, NOTEBOOK)
    lines = [line for line in week.collected().splitlines() if student in line or case.expect["reason"] in line]
    assert any(case.expect["reason"] in line for line in lines), "\n".join(lines) or week.collected()
    graded = case.expect["graded"]
    if graded is None:
        assert not os.path.exists(target) and student not in week.scores
    else:
        with open(target, "rb") as handle:
            assert handle.read() == week.notebooks[graded]
        score = week.scores[student]
        assert score.code == (score.max_code if graded == "solution" else 0), (student, score)
        if case.expect.get("late") == "time unknown":  # no time made up: late, at time_unknown_penalty's cost
            from autograder.workflow.records.upload_record import late_time_unknown
            assert (student, LESSON) in late_time_unknown(week.course)
            assert score.late == 0 and score.penalty == score.total, f"not late, time unknown: {score}"
        elif case.expect.get("late"):  # "zero": a late notebook loses every point it earned
            assert score.late > 0 and score.penalty == score.total, f"not late for nbgrader's penalty: {score}"
        else:
            assert score.late == 0 and score.penalty == 0, score
    if "status" in case.expect:
        row = next(r for r in _rows(os.path.join(week.course, "exports", "grades.csv")) if r["student"] == student)
        assert case.expect["status"] in row["why"], row


@pytest.mark.parametrize("case", [_case(c) for c in CASES if c.expect["graded"]])
def test_plain_nbgrader_grades_what_reached_submitted_as_the_batch_did(week, case):
    student = week.students[case.name]
    if case.expect.get("late") == "time unknown":  # its penalty is the course's policy: nbgrader has no time for it
        assert week.regraded[student]._replace(penalty=0) == week.scores[student]._replace(penalty=0)
        return
    assert week.regraded[student] == week.scores[student]


def test_every_student_is_in_every_export_and_the_report(week):
    everyone = set(week.handed_in) | set(week.students.values())
    if week.no_exchange:
        everyone -= {week.students[c.name] for c in CASES if c.lms == "exchange"}
    exports = os.path.join(week.course, "exports")
    for name in ("grades.csv", "exercises.csv"):
        assert {r["student"] for r in _rows(os.path.join(exports, name))} >= everyone, name
    with open(os.path.join(exports, "canvas.csv"), encoding="utf-8") as handle:
        assert len(list(csv.reader(handle))) >= len(everyone) + 1
    with open(os.path.join(week.course, "report", "report.html"), encoding="utf-8") as handle:
        page = handle.read()
    refused = {week.students[c.name] for c in CASES if not c.expect["graded"] and c.name in week.students}
    assert all(student in page for student in refused), "a student whose upload was refused is accounted for"


def test_no_line_collect_prints_holds_a_control_character_or_a_forged_line(week):
    printed = week.collected()
    assert not CONTROL.search(printed), CONTROL.search(printed)
    placed = {m.group(1) for m in re.finditer(r"^placed (\S+)/" + LESSON, printed, re.MULTILINE)}
    graded = {week.students[c.name] for c in CASES if c.expect["graded"] and c.name in week.students}
    assert placed <= set(week.handed_in) | graded, placed - set(week.handed_in) - graded


def test_nothing_lands_outside_the_course(week):
    assert week.leftovers == []
    assert not any(name.startswith(".collecting-") for name in os.listdir(week.course)), "staging left behind"


@pytest.mark.browser
def test_a_refused_uploads_feedback_page_says_why(week):
    """The page a student opens for an upload that was refused: the reason, in the student's terms."""
    from browser.chromium import launched, require_browser
    from test_export_report import SCREENSHOTS
    require_browser()
    student = week.students["canvas_zip_bomb"]
    page_path = os.path.join(week.course, "feedback", student, LESSON, f"{LESSON}.html")
    with launched() as chromium:
        page = chromium.new_page(viewport={"width": 1100, "height": 700})
        page.goto(f"file://{page_path}")
        text = page.inner_text("body")
        os.makedirs(SCREENSHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SCREENSHOTS, "refused_upload_feedback.png"), full_page=True)
    assert "could not be graded" in text and "c.Collect.max_upload_bytes" in text, text
