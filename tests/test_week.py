"""The instructor's whole week, command for command as docs/instructor.md's "The whole week" tells it.

A fresh copy of the course (its config, lessons and committed example files), then each line of the
section's ``bash`` block as its own shell command: due dates and the time-unknown policy set, the
course's extensions file, release, collect, grade, feedback, export into Canvas's own gradebook file;
then Thursday's download (a late resubmission after the export, a group's notebook, an answer deleted
with its check, a broken file), grade, feedback, export again and the report. At the end every page
and every LMS file is checked against the gradebook and against what the class handed in. Graded once
for the module (two small batches).
"""
import csv
import html
import importlib.util
import os
import re
import shutil
import subprocess
import zipfile

import pytest
from nbgrader.api import Gradebook

from canvas_import import parse_like_canvas
from conftest import ROOT

SECTION = "The whole week"
GUIDE = os.path.join(ROOT, "docs", "instructor.md")

_spec = importlib.util.spec_from_file_location("make_submissions", os.path.join(ROOT, "examples", "make_submissions.py"))
examples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(examples)


def guide_commands() -> list[str]:
    text = open(GUIDE, encoding="utf-8").read()
    heading = re.search(rf"^## {SECTION}\s*$", text, re.MULTILINE)
    assert heading, f"no '{SECTION}' section in docs/instructor.md"
    block = re.search(r"```bash\n(.*?)```", text[heading.end():], re.DOTALL)
    return [line for line in block.group(1).splitlines() if line.strip() and not line.lstrip().startswith("#")]


@pytest.fixture(scope="module")
def week(tmp_path_factory):
    course = str(tmp_path_factory.mktemp("week") / "course")
    os.makedirs(course)
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), course)
    for folder in ("source", "release", "examples"):
        shutil.copytree(os.path.join(ROOT, folder), os.path.join(course, folder),
                        ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    os.symlink(os.path.join(ROOT, ".venv"), os.path.join(course, ".venv"))
    steps = []
    for command in guide_commands():
        done = subprocess.run(["bash", "-c", f". .venv/bin/activate && {command}"], cwd=course,
                              capture_output=True, text=True, timeout=1800)
        steps.append((command, done))
        print(f"$ {command}\n{done.stdout}{done.stderr}")
    return course, steps


def _step(steps, word: str, which: int) -> subprocess.CompletedProcess:
    """The ``which``-th (0-based) run of ``autograd-course word``."""
    return [done for command, done in steps if command.split()[:2] == ["autograd-course", word]][which]


def _rows(path: str) -> list[dict]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def _grades(course) -> dict[tuple[str, str], dict]:
    return {(r["student"], r["lesson"]): r for r in _rows(os.path.join(course, "exports", "grades.csv"))}


def _gradebook(course):
    return Gradebook(f"sqlite:///{os.path.join(course, 'gradebook.db')}")


def test_every_step_succeeds_but_the_grade_that_meets_the_broken_file(week):
    course, steps = week
    failed = {command: done.returncode for command, done in steps if done.returncode}
    assert failed == {"autograd-course grade": 1}, failed
    second = _step(steps, "grade", 1)
    assert second.returncode == 1 and "could not grade rfeynman / 01_graph: not a readable notebook" in second.stdout


def test_the_resubmission_replaces_the_notebook_and_the_one_before_is_kept(week):
    course, steps = week
    said = _step(steps, "collect", 1).stdout
    assert ("placed cshannon/02_backward from shannonclaude_LATE_48213_1177350_02_backward.ipynb (replaced an older "
            "notebook; the one before is kept in ungraded/cshannon/02_backward/replaced/1/02_backward.ipynb)") in said
    with zipfile.ZipFile(os.path.join(course, "examples", "canvas_download.zip")) as first:
        before = first.read("shannonclaude_48213_1177303_02_backward.ipynb")
    with open(os.path.join(course, "ungraded", "cshannon", "02_backward", "replaced", "1", "02_backward.ipynb"), "rb") as kept:
        assert kept.read() == before


def test_a_group_notebook_is_graded_for_every_member(week):
    course, steps = week
    assert ("placed mhamilton/02_backward from group Team Apollo (the notebook dknuth handed in for the group)"
            in _step(steps, "collect", 1).stdout)
    grades = _grades(course)
    for student in ("dknuth", "mhamilton"):
        assert grades[(student, "02_backward")]["group"] == "group Team Apollo, handed in by dknuth"
    assert grades[("dknuth", "02_backward")]["score"] == grades[("mhamilton", "02_backward")]["score"] != ""


def test_a_deleted_answer_scores_0_and_every_other_exercise_is_graded(week):
    course, _ = week
    with _gradebook(course) as gradebook:
        full = {c.name: c.max_score for c in gradebook.find_notebook("01_graph", "01_graph").grade_cells}
        grace = {g.name: g.score for g in gradebook.find_submission_notebook("01_graph", "01_graph", "ghopper").grades}
    assert grace["test_leaf_from_list"] == 0
    assert all(grace[name] == points for name, points in full.items() if name not in ("test_leaf_from_list", "dynamic_graph"))


def test_late_work_the_extension_and_the_time_unknown_policy_everywhere(week):
    course, _ = week
    grades = _grades(course)
    for student in ("aturing", "cshannon"):  # Canvas said LATE, not when: a tenth off, no time made up
        row = grades[(student, "02_backward")]
        earned = float(row["autograded_score"]) + float(row["manual_score"] or 0)
        assert row["late"] == "late, time unknown" and float(row["late_penalty"]) == pytest.approx(earned / 10, abs=0.01)
        assert not os.path.exists(os.path.join(course, "submitted", student, "02_backward", "timestamp.txt"))
    grace = grades[("ghopper", "01_graph")]
    assert grace["due"] == "2026-03-04T12:00:00+00:00" and grace["extension"] == "extensions.csv"
    assert grades[("alovelace", "01_graph")]["due"] == "2026-03-02T12:00:00+00:00"
    page = open(os.path.join(course, "feedback", "ghopper", "01_graph", "01_graph.html"), encoding="utf-8").read()
    assert "(your extension, from extensions.csv)" in page
    page = open(os.path.join(course, "feedback", "aturing", "02_backward", "02_backward.html"), encoding="utf-8").read()
    assert "Handed in late, time unknown" in page


def test_every_page_says_the_number_the_exports_say_and_no_stale_page_is_left(week):
    course, _ = week
    for (student, lesson), row in _grades(course).items():
        page = os.path.join(course, "feedback", student, lesson, f"{lesson}.html")
        if row["status"] == "graded":
            text = open(page, encoding="utf-8").read()
            shown = re.search(rf"{lesson} \(Score: ([\d.]+) / ([\d.]+)\)", text)
            assert shown and float(shown.group(1)) == pytest.approx(float(row["score"]), abs=0.01), (student, lesson)
        elif row["status"] == "could not be graded":
            assert row["why"].split("\n")[0] in html.unescape(open(page, encoding="utf-8").read())
        else:  # held back, missing: no page to return
            assert not os.path.exists(page), (student, lesson, row["status"])
    deleted = open(os.path.join(course, "feedback", "ghopper", "01_graph", "01_graph.html"), encoding="utf-8").read()
    assert "This answer cell was missing from the notebook you handed in" in deleted


def test_feedback_lists_the_pages_changed_since_the_return(week):
    course, steps = week
    said = _step(steps, "feedback", 1).stdout
    assert "  changed: cshannon 02_backward" in said
    for student, lesson in (("ghopper", "01_graph"), ("rfeynman", "01_graph"), ("dknuth", "02_backward"),
                            ("mhamilton", "02_backward")):
        assert f"  new: {student} {lesson}" in said
    assert "changed: alovelace" not in said and "changed: bbabbage" not in said


def test_canvas_feedback_archives_hold_only_current_pages_named_as_canvas_reads_them(week):
    course, _ = week
    with zipfile.ZipFile(os.path.join(course, "examples", "canvas_download_2.zip")) as download:
        attachments = {}  # (user id, lesson) -> the attachment id of the graded (latest) upload
        for name in download.namelist():
            found = re.fullmatch(r"[a-z]+(?:_LATE)?_(\d+)_(\d+)_(\d\d_\w+?)(?:-\d+)?\.ipynb", name)
            if found:
                key = (found.group(1), found.group(3))
                attachments[key] = max(attachments.get(key, ""), found.group(2), key=lambda a: int(a or 0))
    canvas_ids = {str(s.canvas_id): s.student_id for s in examples.CLASS}
    grades = _grades(course)
    seen = set()
    for lesson in ("01_graph", "02_backward"):
        with zipfile.ZipFile(os.path.join(course, "exports", "canvas", f"{lesson}-feedback.zip")) as archive:
            for name in archive.namelist():
                user, attachment = [part for part in name.split("_") if part.isdigit()][:2]  # as Canvas splits it
                student = canvas_ids[user]
                assert attachments[(user, lesson)] == attachment, name
                assert grades[(student, lesson)]["status"] in ("graded", "could not be graded"), name
                with open(os.path.join(course, "feedback", student, lesson, f"{lesson}.html"), "rb") as page:
                    assert archive.read(name) == page.read(), f"{name} is not the current page"
                seen.add((student, lesson))
    assert ("cshannon", "02_backward") in seen and ("ghopper", "01_graph") in seen
    # held back for a hand grade: not returned; a group's page goes once, under the member who handed it in
    assert ("alovelace", "02_backward") not in seen and ("enoether", "02_backward") not in seen
    assert ("dknuth", "02_backward") in seen and ("mhamilton", "02_backward") not in seen


def test_canvas_gradebook_file_gets_every_final_score_and_nothing_else_changes(week):
    course, _ = week
    filled = parse_like_canvas(os.path.join(course, "exports", "canvas_gradebook.csv"))
    grades = _grades(course)
    ids = {str(s.canvas_id): s.student_id for s in examples.CLASS}
    for user, changes in filled.changes.items():
        student = ids.get(user)
        for lesson, number in examples.CANVAS_ASSIGNMENT_IDS.items():
            row = grades.get((student, lesson))
            if row and row["status"] == "graded":
                assert float(changes[number]) == pytest.approx(float(row["score"]), abs=0.01), (student, lesson)
            else:
                assert number not in changes, (student, lesson)
    with open(os.path.join(course, "examples", "canvas_gradebook.csv"), newline="") as a, \
            open(os.path.join(course, "exports", "canvas_gradebook.csv"), newline="") as b:
        before, after = list(csv.reader(a)), list(csv.reader(b))
    assert [row[:5] + row[7:] for row in before] == [row[:5] + row[7:] for row in after]
    assert before[:2] == after[:2]  # the header and Points Possible as downloaded


def test_the_gradebook_is_one_number_with_the_exports(week):
    course, _ = week
    with _gradebook(course) as gradebook:
        for (student, lesson), row in _grades(course).items():
            if row["status"] != "graded":
                continue
            submission = gradebook.find_submission(lesson, student)
            total = max(0.0, submission.score - (submission.late_submission_penalty or 0.0))
            assert float(row["score"]) == pytest.approx(total, abs=0.01), (student, lesson)


def test_the_report_accounts_for_the_week(week):
    course, _ = week
    page = open(os.path.join(course, "report", "report.html"), encoding="utf-8").read()
    with _gradebook(course) as gradebook:
        submissions = sum(len(gradebook.find_assignment(lesson).submissions) for lesson in ("01_graph", "02_backward"))
    assert f"· {submissions} submissions ·" in page
    written = page.split('<section id="written">')[1].split("</section>")[0]
    assert "why_scalar" in written and "dynamic_graph" in written and "pending" in written
    late = page.split("<h3>Late work</h3>")[1].split("</table>")[0]
    assert "late, time unknown" in late and "extension, from extensions.csv" in late
    groups = page.split("<h3>Group work</h3>")[1].split("</table>")[0]
    assert "mhamilton" in groups and "handed in by dknuth" in groups
    accounted = page.split('<section id="accounted">')[1].split("</section>")[0]
    assert "rfeynman" in accounted and "not a readable notebook" in accounted
    assert "Submitted nothing</h3><p>kjohnson</p>" in accounted
