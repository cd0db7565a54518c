"""One small class per LMS, in each LMS's real file naming, from collect to report with everyone accounted for.

The downloads are built here, named as each LMS names them (see the readers in
``autograder/workflow/collect/lms/`` for where each naming comes from):

- Canvas (lesson 01_graph): an on-time solution; a blank first upload and a ``_LATE_`` resubmission
  (a re-uploaded file: a larger attachment id and ``-1``), late with the time unknown, which costs what
  ``c.LateWork.time_unknown_penalty`` says; a
  zero-byte upload;
- Moodle 4.1 with blind marking (02_backward): ``Participant_<id>_assignsubmission_file/`` folders and
  the assignment's grading worksheet for the submission times,
  matched through the roster's ``moodle_id`` (one id per assignment); one notebook over the size
  limit; the grades go back in the lesson's Moodle grading worksheet;
- Blackboard (03_no_grad): two attempts with their times in the names, and their ``.txt`` receipts,
  one of a username with an underscore (``g_hopper``) beside a user ``hopper``, which only the
  receipt tells apart;
- D2L Brightspace (03_no_grad): every attempt of one student (the latest wins, its time from the name)
  and one matched by name alone, with the download's ``index.html``;
- a PDF in place of a notebook (Canvas), which must reach every export, the report and a feedback page;
- roster students who submitted nothing at all.

The grades go back into each LMS's own gradebook file (``export --into``), and a late student's total
is the same number in the gradebook (formgrader), the exports and the report, although the hand
grade came after autograding.

They go through the commands as an instructor runs them (``autograd-course`` in a scratch copy of
the course), graded in one batch, then once more after a hand grade, to see it kept.
"""
import csv
import importlib.util
import os
import re
import shutil
import subprocess
import zipfile
from datetime import datetime

import nbformat
import pytest
from nbgrader.api import Gradebook

from canvas_import import parse_like_canvas
from moodle_import import parse_like_moodle
from conftest import ROOT

spec = importlib.util.spec_from_file_location("make_submissions", os.path.join(ROOT, "examples", "make_submissions.py"))
examples = importlib.util.module_from_spec(spec)
spec.loader.exec_module(examples)

ROSTER = """student_id,name,canvas_id,moodle_id,d2l_id,username,login_id,section
alovelace,Ada Lovelace,48211,,,,alovelace,Lab A
aturing,Alan Turing,48215,,,,aturing,Lab A
ghopper,Grace Hopper,48214,,,g_hopper,ghopper,Lab B
ehopper,Edward Hopper,,,,hopper,ehopper,Lab B
jmuller,Jürgen Müller,,3107 2046,,,jmuller,Lab B
enoether,Emmy Noether,,2047,,,enoether,Lab B
kjohnson,Katherine Johnson,,,,kjohnson7,kjohnson,Lab A
mhamilton,Margaret Hamilton,,,60412,mhamilton,mhamilton,Lab A
dvaughan,Dorothy Vaughan,,,,dvaughan,dvaughan,Lab B
dknuth,Donald Knuth,48216,,,,dknuth,Lab B
cshannon,Claude Shannon,48213,2048,,cshannon1,cshannon,Lab A
"""
DUE = "2026-03-02 12:00:00"  # 01_graph's due date, UTC, set in the gradebook as nbgrader's own commands do
DUE_2 = "2026-03-03 09:00"    # 02_backward's, set by c.LateWork.due_dates
CANVAS_ASSIGNMENTS = {"01_graph": ["Lesson 1: the graph", 81001], "02_backward": ["Lesson 2: backward()", 81002],
                      "03_no_grad": ["Lesson 3: no_grad", 81003]}
# a small limit, so that a 3 MB notebook is "too big" without writing hundreds of MB in a test
NOTEBOOK_LIMIT = 2 * 1024**2


def _notebook(lesson: str, answers: str, written: bool = False) -> bytes:
    corpus = {(a.assignment, a.name): a for a in examples.load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))}
    upload = examples.Upload("x", lesson, answers, 0, written_answer=written)
    return nbformat.writes(examples.notebook_for(upload, ROOT, corpus)).encode()


def _zip(path: str, entries: list[tuple[str, bytes]]) -> str:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            archive.writestr(zipfile.ZipInfo(name, (2026, 3, 3, 9, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return path


def _too_big(lesson: str) -> bytes:
    notebook = nbformat.reads(_notebook(lesson, "solution").decode(), as_version=4)
    code = next(c for c in notebook.cells if c.cell_type == "code")
    code.outputs = [nbformat.v4.new_output("stream", name="stdout", text="x" * (3 * 1024**2))]
    return nbformat.writes(notebook).encode()


def downloads(folder: str) -> dict[str, str]:
    solution1 = _notebook("01_graph", "solution", written=True)
    canvas = _zip(os.path.join(folder, "canvas.zip"), [
        ("lovelaceada_48211_7001_01_graph.ipynb", solution1),
        ("turingalan_48215_7002_01_graph.ipynb", _notebook("01_graph", "blank")),
        ("turingalan_LATE_48215_7090_01_graph-1.ipynb", solution1),  # the late resubmission
        ("hoppergrace_48214_7003_01_graph.ipynb", b""),  # a failed upload: zero bytes
        ("knuthdonald_48216_7004_01_graph.pdf", b"%PDF-1.7 printed from the browser"),  # not a notebook
    ])
    moodle = _zip(os.path.join(folder, "moodle.zip"), [  # Moodle 4.1, blind marking
        ("Participant_2046_assignsubmission_file/02_backward.ipynb", _notebook("02_backward", "wrong:forgot_backward")),
        ("Participant_2047_assignsubmission_file/02_backward.ipynb", _too_big("02_backward")),
    ])
    blackboard = _zip(os.path.join(folder, "blackboard.zip"), [
        ("Lesson 3_kjohnson7_attempt_2026-03-04-10-15-00_03_no_grad.ipynb", _notebook("03_no_grad", "blank")),
        ("Lesson 3_kjohnson7_attempt_2026-03-04-10-15-00.txt", b"Name: Katherine Johnson (kjohnson7)\n"),
        ("Lesson 3_kjohnson7_attempt_2026-03-05-18-40-31_03_no_grad.ipynb", _notebook("03_no_grad", "solution")),
        ("Lesson 3_kjohnson7_attempt_2026-03-05-18-40-31.txt", b"Name: Katherine Johnson (kjohnson7)\n"),
        ("Lesson 3_g_hopper_attempt_2026-03-05-20-00-00_03_no_grad.ipynb", _notebook("03_no_grad", "solution")),
        ("Lesson 3_g_hopper_attempt_2026-03-05-20-00-00.txt", _receipt("Grace Hopper (g_hopper)", "Lesson 3",
                                                                       "Lesson 3_g_hopper_attempt_2026-03-05-20-00-00_03_no_grad.ipynb")),
    ])
    d2l = _zip(os.path.join(folder, "d2l.zip"), [  # D2L Brightspace: every attempt, and its index.html
        ("148823-60412 - Hamilton, Margaret - Mar 5, 2026 940 AM - 03_no_grad.ipynb", _notebook("03_no_grad", "blank")),
        ("148901-60412 - Hamilton, Margaret - Mar 5, 2026 1205 PM - 03_no_grad.ipynb", _notebook("03_no_grad", "solution")),
        ("148777-60499 - Vaughan, Dorothy - Mar 4, 2026 105 PM - 03_no_grad.ipynb", _notebook("03_no_grad", "solution")),
        ("index.html", b"<html><body><h1>Lesson 3</h1><p>3 submissions</p></body></html>"),
    ])
    worksheet = os.path.join(folder, "Grades-Lesson 2-81002.csv")  # Moodle's grading worksheet, in English
    with open(worksheet, "w", encoding="utf-8") as handle:
        handle.write('Identifier,Status,Grade,"Maximum grade","Last modified (submission)","Last modified (grade)"\n'
                     # Moodle's Status cell, tags stripped: the status, then the extension (gradingtable.php)
                     'Participant 2046,"Submitted for grading Extension granted until: Wednesday, 4 March 2026, '
                     '12:00 PM",,100.00,"Tuesday, 3 March 2026, 9:05 AM",-\n'
                     'Participant 2047,"Submitted for grading",,100.00,"Tuesday, 3 March 2026, 9:20 AM",-\n'
                     'Participant 2048,"No submission",,100.00,-,-\n')  # cshannon: on the roster, nothing handed in
    return {"canvas": canvas, "moodle": moodle, "blackboard": blackboard, "d2l": d2l, "moodle worksheet": worksheet}


def _receipt(name: str, assignment: str, filename: str) -> bytes:
    return (f"Name: {name}\nAssignment: {assignment}\nDate Submitted: Thursday, March 5, 2026 8:00:00 PM UTC\n"
            "Current Grade: Needs Grading\n\nSubmission Field:\nThere is no student submission text data for this "
            "assignment.\n\nComments:\nThere are no student comments for this assignment.\n\nFiles:\n"
            f"\tOriginal filename: 03_no_grad.ipynb\n\tFilename: {filename}\n").encode()


# Each LMS's own gradebook download, as the instructor gets it before the grades go back.
GRADEBOOK_FILES = {
    "canvas-gradebook.csv": (
        "Student,ID,SIS User ID,SIS Login ID,Section,Lesson 1: the graph (81001),Notes (81099)\n"
        "    Points Possible,,,,,12.00,0.00\n"
        "\"Lovelace, Ada\",48211,S-1,alovelace,Lab A,,keep me\n"
        "\"Turing, Alan\",48215,S-2,aturing,Lab A,,\n"
        "\"Knuth, Donald\",48216,S-9,dknuth,Lab B,,\n"
        "\"Student, Test\",99999,,,Lab A,,\n"),
    "gc_LESSON_fullgc_2026-03-06-09-00-00.csv": (
        '"Last Name","First Name","Username","Student ID","Last Access","Availability",'
        '"Lesson 3 [Total Pts: 100 Score] |7003","Weighted Total [Total Pts: up to 0 Percentage] |7000"\n'
        '"Johnson","Katherine","kjohnson7","K-7","2026-03-05 18:41:00","Available","",""\n'
        '"Hopper","Grace","g_hopper","G-1","2026-03-05 20:01:00","Available","",""\n'
        '"Hopper","Edward","hopper","E-1","","Available","",""\n'),
    "Lesson 3_GradesExport_2026-03-06.csv": (
        "OrgDefinedId,Username,Last Name,First Name,Email,Lesson 3 Points Grade <Numeric MaxPoints:10>,End-of-Line Indicator\n"
        "#M-12,#mhamilton,Hamilton,Margaret,mh@example.edu,,#\n"
        "#D-13,#dvaughan,Vaughan,Dorothy,dv@example.edu,,#\n"),
}


def _run(course: str, *args: str) -> subprocess.CompletedProcess:
    done = subprocess.run([os.path.join(ROOT, ".venv", "bin", "autograd-course"), "--root", course, *args],
                          cwd=course, capture_output=True, text=True, timeout=900)
    print(f"$ autograd-course {' '.join(args)}\n{done.stdout}{done.stderr}")
    return done


def _written_answer(lesson: str) -> str:
    source = nbformat.read(os.path.join(ROOT, "source", lesson, f"{lesson}.ipynb"), as_version=4)
    return next(c.metadata.nbgrader["grade_id"] for c in source.cells
                if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("grade"))


@pytest.fixture(scope="module")
def week(tmp_path_factory):
    """The course after the whole week; ``out`` holds each command's output by name."""
    base = tmp_path_factory.mktemp("lms")
    course = str(base / "course")
    os.makedirs(course)
    for folder in ("source", "release"):
        shutil.copytree(os.path.join(ROOT, folder), os.path.join(course, folder),
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__", "04_*"))
    with open(os.path.join(ROOT, "nbgrader_config.py"), encoding="utf-8") as handle:
        config = handle.read()
    config += (f"\nc.Collect.max_notebook_bytes = {NOTEBOOK_LIMIT}\n"
               f"c.CanvasExport.assignments = {CANVAS_ASSIGNMENTS!r}\n"
               'c.LateSubmissionPlugin.penalty_method = "zero"\n'
               "c.LateWork.time_unknown_penalty = 1.0\n"  # Canvas's bare LATE costs what "zero" costs
               f"c.LateWork.due_dates = {{'02_backward': '{DUE_2}'}}\n"  # jmuller's extension makes 9:05 on time
               "c.LMSFiles.columns = {'03_no_grad': 'Lesson 3'}\n")
    with open(os.path.join(course, "nbgrader_config.py"), "w", encoding="utf-8") as handle:
        handle.write(config)
    roster = str(base / "roster.csv")
    with open(roster, "w", encoding="utf-8") as handle:
        handle.write(ROSTER)
    files = downloads(str(base))
    out = {}
    out["release"] = _run(course, "release", "01_graph", "02_backward", "03_no_grad")
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        gradebook.update_or_create_assignment("01_graph", duedate=datetime.fromisoformat(DUE))
    worksheet = files.pop("moodle worksheet")
    for lms, path in files.items():  # canvas, moodle, blackboard, d2l
        extra = ["--moodle-worksheet", worksheet] if lms == "moodle" else []
        out[f"collect {lms}"] = _run(course, "collect", path, "--roster", roster, *extra)
    out["grade"] = _run(course, "grade")
    out["grade once more"] = _run(course, "grade")  # nothing new: the unreadable file is not tried again
    out["export before hand grading"] = _run(course, "export", "--roster", roster, "--out", os.path.join(course, "early"))
    # a hand grade on Ada's written answer and on Alan's, then Alan changes his answer and both are graded again
    answer = _written_answer("01_graph")
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        for student in ("alovelace", "aturing"):
            grade = gradebook.find_grade(answer, "01_graph", "01_graph", student)
            grade.manual_score, grade.needs_manual_grade = 1.5, False
        gradebook.db.commit()
    alan = os.path.join(course, "submitted", "aturing", "01_graph", "01_graph.ipynb")
    notebook = nbformat.read(alan, as_version=4)
    cell = next(c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade_id") == answer)
    cell.source += "\n\nOn second thought: every forward pass records a new graph."
    nbformat.write(notebook, alan)
    out["grade again"] = _run(course, "grade", "01_graph", "--student", "alovelace", "--student", "aturing",
                              "--force")
    out["feedback"] = _run(course, "feedback")
    into = []
    for name, text in GRADEBOOK_FILES.items():
        path = str(base / name)
        with open(path, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        into += ["--into", path]
    out["export"] = _run(course, "export", "--roster", roster, "--out", os.path.join(course, "exports"), *into,
                         "--into", worksheet)
    out["report"] = _run(course, "report", "--roster", roster, "--out", os.path.join(course, "report"))
    return course, out, answer


def _rows(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_every_command_runs_and_grade_says_what_it_could_not_grade(week):
    _, out, _ = week
    assert {name: done.returncode for name, done in out.items()} == {name: 1 if name == "grade" else 0 for name in out}
    # in the words collect used, not the parser's ("NotJSONError: Notebook does not appear to be JSON: ''")
    assert "could not grade ghopper / 01_graph: an empty file (0 bytes of notebook)" in out["grade"].stdout
    assert "graded 7, failed 1" in out["grade"].stdout


def test_grading_again_with_nothing_new_tries_nothing_and_says_what_it_left(week):
    _, out, _ = week
    again = out["grade once more"].stdout
    assert "grading 0 submission(s)" in again and "7 already graded" in again
    assert "not graded again ghopper / 01_graph: an empty file" in again and "--force tries it again" in again


def test_collect_reads_each_lms_naming(week):
    course, out, _ = week
    canvas, moodle, blackboard, d2l = (out[f"collect {lms}"].stdout for lms in ("canvas", "moodle", "blackboard", "d2l"))
    assert "superseded turingalan_48215_7002_01_graph.ipynb (aturing/01_graph): kept turingalan_LATE_" in canvas
    assert "UNREADABLE ghopper/01_graph" in canvas and "an empty file" in canvas
    assert "placed jmuller/02_backward from Participant_2046_assignsubmission_file/02_backward.ipynb" in moodle
    assert "REFUSED enoether/02_backward" in moodle and "over the limit of 2.0 MiB" in moodle
    assert "superseded Lesson 3_kjohnson7_attempt_2026-03-04-10-15-00_03_no_grad.ipynb" in blackboard
    assert ".txt" not in blackboard.replace("skipped", "")  # receipts read, and not listed
    assert "placed ghopper/03_no_grad from Lesson 3_g_hopper_attempt_" in blackboard  # the receipt's exact username
    assert "NOT A NOTEBOOK dknuth/01_graph from knuthdonald_48216_7004_01_graph.pdf" in canvas
    assert "placed mhamilton/03_no_grad from 148901-60412" in d2l and "superseded 148823-60412" in d2l
    assert "placed dvaughan/03_no_grad" in d2l and "index.html" not in d2l
    assert os.path.exists(os.path.join(course, "ungraded", "dknuth", "01_graph", "uploads", "01_graph.pdf"))
    assert not os.path.exists(os.path.join(course, "submitted", "enoether")), "a refused file is never written"


def _timestamp(course, student, lesson) -> str:
    with open(os.path.join(course, "submitted", student, lesson, "timestamp.txt"), encoding="utf-8") as handle:
        return handle.read().strip()


def test_submission_times_are_nbgraders_timestamps(week):
    course, _, _ = week
    assert _timestamp(course, "kjohnson", "03_no_grad") == "2026-03-05 18:40:31.000000 UTC"  # Blackboard's
    assert _timestamp(course, "jmuller", "02_backward") == "2026-03-03 09:05:00.000000 UTC"  # Moodle's worksheet
    # Canvas says LATE, not when: no time is made up, it is late with the time unknown
    assert not os.path.exists(os.path.join(course, "submitted", "aturing", "01_graph", "timestamp.txt"))
    assert _timestamp(course, "mhamilton", "03_no_grad") == "2026-03-05 12:05:00.000000 UTC"  # D2L's, from the name
    assert _timestamp(course, "ghopper", "03_no_grad") == "2026-03-05 20:00:00.000000 UTC"  # Blackboard's
    assert not os.path.exists(os.path.join(course, "submitted", "alovelace", "01_graph", "timestamp.txt"))
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        late = gradebook.find_submission("01_graph", "aturing")
        on_time = gradebook.find_submission("01_graph", "alovelace")
        assert late.total_seconds_late == 0 and late.late_submission_penalty == late.score > 0  # time_unknown_penalty 1
        assert on_time.total_seconds_late == 0 and not on_time.late_submission_penalty
    grades = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}
    assert grades[("aturing", "01_graph")]["late"] == "late, time unknown"
    assert grades[("kjohnson", "03_no_grad")]["late"] == "" and grades[("alovelace", "01_graph")]["late"] == ""


def test_hand_grades_survive_grading_again_unless_the_answer_changed(week):
    course, out, answer = week
    again = out["grade again"].stdout
    assert f"kept the hand grade of alovelace / 01_graph {answer} (1.5 points): answer unchanged" in again
    assert f"HAND GRADE TO CHECK aturing / 01_graph {answer}" in again
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        kept = gradebook.find_grade(answer, "01_graph", "01_graph", "alovelace")
        changed = gradebook.find_grade(answer, "01_graph", "01_graph", "aturing")
        assert (kept.manual_score, kept.needs_manual_grade) == (1.5, False)
        assert (changed.manual_score, changed.needs_manual_grade) == (1.5, True)


def test_every_roster_student_is_in_every_csv_with_a_status(week):
    course, out, answer = week
    grades = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}
    students = [line.split(",")[0] for line in ROSTER.splitlines()[1:]]
    lessons = ["01_graph", "02_backward", "03_no_grad"]
    assert set(grades) == {(s, lesson) for s in students for lesson in lessons}
    assert grades[("alovelace", "01_graph")]["status"] == "graded"
    assert grades[("alovelace", "01_graph")]["manual_score"] == "1.5"
    assert grades[("aturing", "01_graph")]["status"] == "hand grade to check"
    assert grades[("ghopper", "01_graph")]["status"] == "could not be graded"
    assert "empty file" in grades[("ghopper", "01_graph")]["why"]
    assert grades[("enoether", "02_backward")]["status"] == "could not be graded"
    assert "over the limit" in grades[("enoether", "02_backward")]["why"]
    # an untouched written answer is "No response", 0 points, as nbgrader grades it: nothing to wait for
    assert grades[("jmuller", "02_backward")]["status"] == "graded"
    assert grades[("kjohnson", "03_no_grad")]["status"] == "graded"
    assert all(grades[(s, lesson)]["status"] == "missing" for lesson in lessons for s in ("cshannon", "ehopper"))
    assert grades[("dknuth", "01_graph")]["status"] == "could not be graded"
    assert "only 01_graph.pdf (a PDF)" in grades[("dknuth", "01_graph")]["why"]
    assert all(grades[(s, "03_no_grad")]["status"] == "graded" for s in ("ghopper", "mhamilton", "dvaughan"))
    exercises = {(r["student"], r["lesson"]) for r in _rows(os.path.join(course, "exports", "exercises.csv"))}
    assert exercises == set(grades)
    [alan] = [line for line in out["export"].stdout.splitlines() if line.startswith("  aturing 01_graph: left blank")]
    assert alan.startswith("  aturing 01_graph: left blank for Canvas and canvas-gradebook.csv, hand grade to check")


def test_canvas_csv_lands_in_the_courses_assignments(week):
    course, out, _ = week
    path = os.path.join(course, "exports", "canvas.csv")
    with open(path, encoding="utf-8") as handle:
        header = handle.readline().strip()
    print("canvas.csv header:", header)
    assert header == ("Student,ID,SIS User ID,SIS Login ID,Section,Lesson 1: the graph (81001),"
                      "Lesson 2: backward() (81002),Lesson 3: no_grad (81003)")
    parsed = parse_like_canvas(path)
    assert parsed.new_assignments == [], "every column fills an existing assignment"
    assert [(title, id_) for title, id_, _ in parsed.assignments] == [(t, i) for t, i in CANVAS_ASSIGNMENTS.values()]
    assert all(points > 0 for *_, points in parsed.assignments)
    assert set(parsed.changes) == {"48211", "48215", "48214", "48213", "48216", "jmuller", "enoether", "kjohnson",
                                   "mhamilton", "dvaughan", "ehopper"}
    assert parsed.changes["48216"] == {}  # a PDF: could not be graded, no change
    full = next(points for title, _, points in parsed.assignments if title.startswith("Lesson 1"))
    assert parsed.changes["48211"] == {81001: f"{full - 0.5:g}"}  # Ada: every test, and 1.5/2 by hand
    assert parsed.changes["48215"] == {}  # a hand grade to check
    assert 81001 not in parsed.changes["48214"] and 81003 in parsed.changes["48214"]  # empty file; Blackboard's lesson
    assert parsed.changes["48213"] == {}  # submitted nothing: no change, never a 0


def test_the_moodle_worksheet_gives_the_grades_back_by_participant_id(week):
    course, out, _ = week
    path = os.path.join(course, "exports", "moodle", "02_backward.csv")
    grades = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}
    jurgen = grades[("jmuller", "02_backward")]
    assert sorted(os.listdir(os.path.dirname(path))) == ["02_backward-feedback.zip", "02_backward.csv"], \
        "only the lesson collected from Moodle"
    with zipfile.ZipFile(os.path.join(os.path.dirname(path), "02_backward-feedback.zip")) as archive:
        # Moodle's importer finds the participant after the first "_"; Emmy's page says why hers was not graded
        assert sorted(archive.namelist()) == ["Participant_2046_assignsubmission_file_/02_backward.html",
                                              "Participant_2047_assignsubmission_file_/02_backward.html"]
        assert "could not be graded" in archive.read("Participant_2047_assignsubmission_file_/02_backward.html").decode()
    assert f"set the Moodle assignment's Maximum grade to {jurgen['max_score']}" in out["export"].stdout
    assert "enoether 02_backward: left blank for Canvas and Moodle and Grades-Lesson 2-81002.csv, could not be graded" \
        in out["export"].stdout
    participants = {"2046", "2047", "2048"}
    assert parse_like_moodle(path, float(jurgen["max_score"]), participants) == {"2046": float(jurgen["score"])}
    assert {r["Identifier"]: r["Grade"] for r in _rows(path)} == {
        "Participant 2046": jurgen["score"], "Participant 2047": ""}  # Emmy's was refused: no grade, no 0


def test_feedback_for_everyone_who_handed_in_something(week):
    course, out, _ = week
    for student, lesson in [("alovelace", "01_graph"), ("jmuller", "02_backward"), ("kjohnson", "03_no_grad"),
                            ("mhamilton", "03_no_grad"), ("ghopper", "03_no_grad")]:
        assert os.path.exists(os.path.join(course, "feedback", student, lesson, f"{lesson}.html")), student
    # Alan's hand grade is to be checked: his page waits, rather than show a total that is not final
    assert not os.path.exists(os.path.join(course, "feedback", "aturing", "01_graph", "01_graph.html"))
    assert "aturing: held back, hand grade to check" in out["feedback"].stdout
    for student, lesson, why in [("ghopper", "01_graph", "empty file"), ("enoether", "02_backward", "over the limit"),
                                 ("dknuth", "01_graph", "01_graph.pdf (a PDF)")]:
        with open(os.path.join(course, "feedback", student, lesson, f"{lesson}.html"), encoding="utf-8") as page:
            text = page.read()
        assert "could not be graded" in text and why in text, student


def test_report_accounts_for_everyone(week):
    course, _, _ = week
    with open(os.path.join(course, "report", "report.html"), encoding="utf-8") as handle:
        page = handle.read()
    accounted = page.split('<section id="accounted">')[1].split("</section>")[0]
    assert "Submitted nothing</h3><p>cshannon, ehopper</p>" in accounted
    assert "ghopper" in accounted and "enoether" in accounted and "dknuth" in accounted
    assert "11 students on the roster" in page
    late = page.split("<h3>Late work</h3>")[1].split("</table>")[0]  # apart from the score charts
    assert "aturing" in late and "01_graph" in late and "late, time unknown" in late
    assert "backward() was never called" in page  # jmuller's mistake


@pytest.mark.browser
def test_the_class_report_renders_every_chart_in_chromium(week):
    from browser.chromium import CHROMIUM, CHROMIUM_ARGS, require_browser
    from test_export_report import SCREENSHOTS
    require_browser()
    import playwright.sync_api as playwright_api
    course, _, _ = week
    page_path = os.path.join(course, "report", "report.html")
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.goto(f"file://{page_path}")
            page.wait_for_load_state("load")
            images = page.eval_on_selector_all(
                "img", "imgs => imgs.map(i => ({alt: i.alt, complete: i.complete, width: i.naturalWidth}))")
            os.makedirs(SCREENSHOTS, exist_ok=True)
            page.screenshot(path=os.path.join(SCREENSHOTS, "lms_class_report.png"), full_page=True)
        finally:
            browser.close()
    starts = ["Histograms of scores per lesson, late work apart. ",
              "Bar chart of the share of submissions with full points, per exercise. ",
              "Bar chart of wrong answers by idea, the ", "Bar chart of the slowest cells. "]
    assert [image["alt"][:len(start)] for image, start in zip(images, starts)] == starts, images
    assert re.search(r"median [\d.]+ of [\d.]+, from", images[0]["alt"]), images[0]["alt"]  # its key values
    assert re.search(r": \d+ of \d+", images[1]["alt"]) and re.search(r"slowest [\d.]+ s", images[3]["alt"])
    assert all(image["complete"] and image["width"] > 0 for image in images), images


def _read_rows(path: str) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8-sig") as handle:
        return list(csv.reader(handle))


def test_grades_go_back_into_each_lms_own_file_with_everything_else_as_downloaded(week):
    course, out, _ = week
    base = os.path.dirname(course)
    grades = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}
    filled = {}
    for name in list(GRADEBOOK_FILES) + ["Grades-Lesson 2-81002.csv"]:
        before, after = _read_rows(os.path.join(base, name)), _read_rows(os.path.join(course, "exports", name))
        assert len(before) == len(after) and [len(r) for r in before] == [len(r) for r in after], name
        changed = {(i, j): cell for i, (was, now) in enumerate(zip(before, after))
                   for j, (old, cell) in enumerate(zip(was, now)) if old != cell}
        filled[name] = {after[i][0 if name.startswith(("canvas", "Grades")) else 2 if name.startswith("gc_") else 1]:
                        cell for (i, _), cell in changed.items()}
        print(name, filled[name])
    # Canvas: Ada's total; Alan (to check) and Donald (a PDF) and the test student untouched, the Notes kept
    assert filled["canvas-gradebook.csv"] == {"Lovelace, Ada": grades[("alovelace", "01_graph")]["score"]}
    assert parse_like_canvas(os.path.join(course, "exports", "canvas-gradebook.csv")).new_assignments == []
    # Blackboard: out of the item's 100 points; D2L: out of its MaxPoints 10
    full = float(grades[("kjohnson", "03_no_grad")]["max_score"])

    def scaled(student, out_of):
        return pytest.approx(float(grades[(student, "03_no_grad")]["score"]) * out_of / full, abs=0.01)
    blackboard = filled["gc_LESSON_fullgc_2026-03-06-09-00-00.csv"]
    assert {who: float(v) for who, v in blackboard.items()} == {"kjohnson7": scaled("kjohnson", 100),
                                                                "g_hopper": scaled("ghopper", 100)}
    d2l = filled["Lesson 3_GradesExport_2026-03-06.csv"]
    assert {who: float(v) for who, v in d2l.items()} == {"#mhamilton": scaled("mhamilton", 10),
                                                         "#dvaughan": scaled("dvaughan", 10)}
    # Moodle: its own worksheet, scaled to its Maximum grade 100, read back as Moodle reads it
    jurgen = grades[("jmuller", "02_backward")]
    moodle = os.path.join(course, "exports", "Grades-Lesson 2-81002.csv")
    expected = float(jurgen["score"]) * 100 / float(jurgen["max_score"])
    assert parse_like_moodle(moodle, 100.0, {"2046", "2047"}) == {"2046": pytest.approx(expected, abs=0.01)}


def test_a_late_total_is_one_number_whatever_the_order_of_hand_grading(week):
    """Alan was late under "zero": his hand grade came after autograding, yet his total is 0 in the
    gradebook (what formgrader shows), in both exports, before and after hand grading."""
    course, _, _ = week
    early = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "early", "grades.csv"))}
    final = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}
    assert early[("aturing", "01_graph")]["score"] == final[("aturing", "01_graph")]["score"] == "0"
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        for (student, lesson), row in final.items():
            if row["status"] in ("missing", "could not be graded"):
                continue
            submission = gradebook.find_submission(lesson, student)
            total = max(0.0, submission.score - (submission.late_submission_penalty or 0.0))
            assert float(row["score"]) == pytest.approx(total, abs=0.01), (student, lesson)
        alan = gradebook.find_submission("01_graph", "aturing")
        assert alan.score > 1.5 and alan.late_submission_penalty == pytest.approx(alan.score)  # hand grade included


def test_students_names_reach_the_gradebook(week):
    course, _, _ = week
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        names = {s.id: (s.first_name, s.last_name) for s in gradebook.students}
    assert names["ghopper"] == ("Grace", "Hopper") and names["jmuller"] == ("Jürgen", "Müller")
    assert names["mhamilton"] == ("Margaret", "Hamilton")


def test_an_extension_in_moodles_worksheet_is_the_students_due_date(week):
    """jmuller handed in at 9:05, five minutes after 02_backward's due date, within the extension
    Moodle's worksheet grants: no late penalty, and every export and the report say the extension."""
    course, out, _ = week
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        jmuller = gradebook.find_submission("02_backward", "jmuller")
        assert jmuller.duedate == datetime(2026, 3, 4, 12, 0) and jmuller.total_seconds_late == 0
        assert not any(n.late_submission_penalty for n in jmuller.notebooks)
    grades = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}
    assert grades[("jmuller", "02_backward")]["due"] == "2026-03-04T12:00:00+00:00"
    assert grades[("jmuller", "02_backward")]["extension"] == "Moodle grading worksheet"
    assert grades[("jmuller", "02_backward")]["late"] == ""
    with open(os.path.join(course, "report", "report.html"), encoding="utf-8") as handle:
        late = handle.read().split("<h3>Late work</h3>")[1].split("</table>")[0]
    assert "jmuller" in late and "extension, from Moodle grading worksheet" in late


def test_a_worksheet_row_of_a_roster_student_with_nothing_handed_in_is_theirs(week):
    _, out, _ = week
    said = "\n".join(done.stdout for name, done in out.items() if name.startswith("export"))
    assert "Participant 2048" not in said  # matched by the roster's moodle_id: no "not a student" line for it

