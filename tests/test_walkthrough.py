"""The instructor guide's "Grading a class", command for command, on the example class in a scratch course.

The commands are read from docs/instructor.md and each runs as its own shell command, in a copy of the course with the example class generated
from today's lessons (examples/make_submissions.py). Each step is then checked by what it left:
notebooks placed, grades in the gradebook, feedback without the grader's code, CSVs, the report.
"""
import csv
import importlib.util
import os
import re
import shutil
import subprocess
import zipfile

import nbformat
import pytest
from nbgrader.api import Gradebook

from conftest import ROOT

SECTION = "Grading a class"
GUIDE = os.path.join("docs", "instructor.md")  # where the instructor reads the week's commands
EXAMPLES = os.path.join(ROOT, "examples")


def _load_examples():
    spec = importlib.util.spec_from_file_location("make_submissions", os.path.join(EXAMPLES, "make_submissions.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


examples = _load_examples()


def readme_commands() -> list[str]:
    """The shell lines of the section's first ``bash`` block in the instructor's guide."""
    text = open(os.path.join(ROOT, GUIDE), encoding="utf-8").read()
    heading = re.search(rf"^#+ {SECTION}\s*$", text, re.MULTILINE)
    assert heading, f"no '{SECTION}' section in {GUIDE}"
    block = re.search(r"```bash\n(.*?)```", text[heading.end():], re.DOTALL)
    return [line for line in block.group(1).splitlines() if line.strip() and not line.lstrip().startswith("#")]


def step_name(command: str) -> str:
    words = command.split()
    return words[1] if words[0] == "autograd-course" else words[0]


@pytest.fixture(scope="module")
def walkthrough(tmp_path_factory):
    course = str(tmp_path_factory.mktemp("walkthrough") / "course")
    os.makedirs(course)
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), course)
    for folder in ("source", "release"):
        shutil.copytree(os.path.join(ROOT, folder), os.path.join(course, folder),
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    os.symlink(os.path.join(ROOT, ".venv"), os.path.join(course, ".venv"))
    assert examples.main(["--root", ROOT, "--out", os.path.join(course, "examples")]) == 0
    steps = {}
    for command in readme_commands():
        done = subprocess.run(["bash", "-c", f". .venv/bin/activate && {command}"], cwd=course,
                              capture_output=True, text=True, timeout=1800)
        steps[step_name(command)] = done
        print(f"$ {command}\n{done.stdout}{done.stderr}")
    return course, steps


def expected_code_scores() -> dict[tuple[str, str], float]:
    """(student, lesson) -> autograded points, from the example's declared answers and the lessons."""
    corpus = {(a.assignment, a.name): a for a in examples.load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))}
    latest = {}
    for upload in examples.UPLOADS:
        if not upload.filename and upload.download == 1:  # the section collects the first download
            key = (upload.student, upload.lesson)
            if key not in latest or upload.submission_id > latest[key].submission_id:
                latest[key] = upload
    expected = {}
    for (student, lesson), upload in latest.items():
        source = nbformat.read(os.path.join(ROOT, "source", lesson, f"{lesson}.ipynb"), as_version=4)
        points = {c.id: c.metadata.nbgrader["points"] for c in source.cells
                  if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")}
        if upload.answers == "blank":
            expected[(student, lesson)] = 0
        else:
            lost = [corpus[(lesson, n)].test_id for n in upload.answers.partition(":")[2].split(",") if n]
            expected[(student, lesson)] = sum(points.values()) - sum(points[t] for t in lost)
    return expected


EXPECTED = expected_code_scores()


def test_the_section_runs_collect_grade_feedback_export_report_in_order(walkthrough):
    _, steps = walkthrough
    order = [s for s in steps if s in ("collect", "grade", "feedback", "export", "report")]
    assert order == ["collect", "grade", "feedback", "export", "report"]


def test_every_command_succeeds(walkthrough):
    _, steps = walkthrough
    failed = {name: done.stdout + done.stderr for name, done in steps.items() if done.returncode}
    assert not failed


def test_collect_places_the_latest_notebooks_and_says_what_it_left(walkthrough):
    course, steps = walkthrough
    out = steps["collect"].stdout
    for student, lesson in EXPECTED:
        assert os.path.exists(os.path.join(course, "submitted", student, lesson, f"{lesson}.ipynb")), (student, lesson)
    assert sorted(os.listdir(os.path.join(course, "submitted"))) == sorted({s for s, _ in EXPECTED})
    with zipfile.ZipFile(os.path.join(course, "examples", "canvas_download.zip")) as archive:
        late = next(n for n in archive.namelist() if "_LATE_" in n)
        with open(os.path.join(course, "submitted", "aturing", "02_backward", "02_backward.ipynb"), "rb") as placed:
            assert placed.read() == archive.read(late)
    assert f"{len(EXPECTED)} placed" in out
    assert re.search(r"superseded turingalan_48215_1177305_02_backward\.ipynb \(aturing/02_backward\): "
                     r"kept turingalan_LATE_", out)
    assert re.search(r"also handed in \w+/02_backward from noetheremmy_48216_1177306_scratch_work\.txt: a text file, "
                     r"handed in beside the notebook: kept, not graded", out)
    assert "missing kjohnson/02_backward" in out


def test_grade_stores_every_submission_with_its_score(walkthrough):
    course, steps = walkthrough
    assert f"graded {len(EXPECTED)}, failed 0" in steps["grade"].stdout
    with Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}") as gradebook:
        scores = {(s.student.id, s.assignment.name): s.code_score
                  for lesson in ("01_graph", "02_backward") for s in gradebook.find_assignment(lesson).submissions}
        full = gradebook.find_assignment("02_backward").max_code_score
    assert scores == EXPECTED
    assert scores[("alovelace", "02_backward")] == full > 0 and scores[("bbabbage", "02_backward")] == 0


def test_feedback_shows_outcomes_but_no_grader_code(walkthrough):
    course, steps = walkthrough
    grades = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}
    pending = {key for key in EXPECTED if grades[key]["status"] in ("waiting for hand grading", "hand grade to check")}
    for student, lesson in pending:  # a page would show a total that is not final: it waits for the hand grades
        assert f"{student}: held back, waiting for hand grading" in steps["feedback"].stdout
        assert not os.path.exists(os.path.join(course, "feedback", student, lesson, f"{lesson}.html"))
    assert len(pending) < len(EXPECTED)
    for student, lesson in set(EXPECTED) - pending:
        page = open(os.path.join(course, "feedback", student, lesson, f"{lesson}.html"), encoding="utf-8").read()
        for secret in ("HIDDEN TESTS", "Traceback (most recent call last)", "autograder.grading", "references."):
            assert secret not in page, (student, lesson, secret)
    forgot = os.path.join(course, "feedback", "cshannon", "02_backward", "02_backward.html")
    with open(forgot, encoding="utf-8") as page:
        assert "backward() was never called" in page.read()


def _rows(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def test_export_writes_the_three_csvs(walkthrough):
    course, steps = walkthrough
    grades = {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}
    for key, score in EXPECTED.items():
        assert grades[key]["submitted"] == "yes" and float(grades[key]["autograded_score"]) == score, key
    assert grades[("bbabbage", "01_graph")]["submitted"] == "no"
    assert grades[("bbabbage", "01_graph")]["status"] == "missing"
    assert grades[("alovelace", "02_backward")]["manual_grading_pending"] == "yes"  # a written answer to grade
    assert grades[("alovelace", "02_backward")]["status"] == "waiting for hand grading"
    assert {grades[("kjohnson", lesson)]["status"] for lesson in ("01_graph", "02_backward")} == {"missing"}
    exercises = _rows(os.path.join(course, "exports", "exercises.csv"))
    assert "test_grad_via_backward" in exercises[0]
    canvas = {r["SIS Login ID"]: r for r in _rows(os.path.join(course, "exports", "canvas.csv"))}
    assert canvas["bbabbage"]["02_backward"] == "0" and canvas["alovelace"]["02_backward"] == ""
    assert canvas["cshannon"]["Section"] == "Lab A" and canvas["cshannon"]["ID"] == "48213"
    assert "kjohnson" in canvas, "a roster student who submitted nothing still has a row"
    assert "alovelace 02_backward: left blank for Canvas, waiting for hand grading" in steps["export"].stdout


def test_report_is_one_self_contained_page(walkthrough):
    course, _ = walkthrough
    page = open(os.path.join(course, "report", "report.html"), encoding="utf-8").read()
    assert "02_backward" in page and "grad_via_backward" in page
    handed_in = {u.student for u in examples.UPLOADS if u.download == 1}
    nothing = sorted(s.student_id for s in examples.CLASS if s.student_id not in handed_in)
    assert f"Submitted nothing</h3><p>{', '.join(nothing)}</p>" in page and "kjohnson" in nothing
    assert "data:image/png;base64," in page and "http://" not in page and "https://" not in page


def test_the_committed_example_is_what_the_generator_makes(tmp_path):
    """Same files, each with the same contents, and the same roster: the README's example follows today's
    lessons (run examples/make_submissions.py after a lesson changes)."""
    examples.main(["--root", ROOT, "--out", str(tmp_path)])
    for download in examples.DOWNLOADS.values():
        with zipfile.ZipFile(os.path.join(EXAMPLES, download)) as committed, zipfile.ZipFile(tmp_path / download) as fresh:
            assert committed.namelist() == fresh.namelist()
            stale = [name for name in fresh.namelist() if committed.read(name) != fresh.read(name)]
            assert not stale, f"examples/{download} predates the lessons: run examples/make_submissions.py ({stale})"
    for name in ("roster.csv", "extensions.csv", "canvas_gradebook.csv"):
        assert open(os.path.join(EXAMPLES, name)).read() == (tmp_path / name).read_text(), name
