"""The export CSVs and the class report, on a small course built by hand (no kernels).

The gradebook is a real nbgrader gradebook filled through ``nbgrader.api.Gradebook``; the
autograded notebooks carry the ``autograd_course`` metadata the grader writes, so every number
the tests expect can be worked out from the tables below.
"""
import argparse
import base64
import csv
import html
import os
import re
import shutil
from datetime import datetime, timedelta, timezone
from pathlib import Path

import nbformat
import pytest

from autograder.course_dir import open_api
from autograder.workflow import command_arguments
from autograder.workflow.grades import export
from autograder.workflow.pages import report
from browser.chromium import CHROMIUM, CHROMIUM_ARGS, require_browser
from canvas_import import parse_like_canvas
from moodle_import import parse_like_moodle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCREENSHOTS = os.path.join(ROOT, "test-artifacts", "screenshots")

# lesson -> graded cells in notebook order: (grade_id, points, cell type)
LESSONS = {
    "01_graph": [("test_make_leaf", 1, "code"), ("dynamic_graph", 2, "markdown"), ("test_count_nodes", 2, "code")],
    "02_backward": [("test_vjp", 2, "code"), ("test_two_losses", 2, "code"), ("why_scalar", 2, "markdown")],
}
STUDENTS = {"alice": {"first_name": "Alice", "last_name": "Liddell", "lms_user_id": "101"},
            "bob": {}, "carol": {}, "dave": {}}
# (student, lesson) -> grade_id -> (auto_score, manual_score); (None, None) = not graded yet
GRADES = {
    ("alice", "01_graph"): {"test_make_leaf": (1, None), "test_count_nodes": (2, None), "dynamic_graph": (None, 1.5)},
    ("bob", "01_graph"): {"test_make_leaf": (1, None), "test_count_nodes": (0, None), "dynamic_graph": (None, None)},
    ("dave", "01_graph"): {"test_make_leaf": (1, None), "test_count_nodes": (2, None), "dynamic_graph": (None, 2)},
    ("alice", "02_backward"): {"test_vjp": (0, None), "test_two_losses": (0, None), "why_scalar": (None, 2)},
    ("bob", "02_backward"): {"test_vjp": (0, None), "test_two_losses": (0, None), "why_scalar": (None, 0)},
    ("carol", "02_backward"): {"test_vjp": (2, None), "test_two_losses": (0, None), "why_scalar": (0, None)},
    ("dave", "02_backward"): {"test_vjp": (0, None), "test_two_losses": (0, None), "why_scalar": (None, None)},
}
WRONG_SIGN = "Incorrect: the gradient has the wrong sign."
NOT_ATTEMPTED = ("not_attempted", "", "`two_losses` was not attempted: it still raises NotImplementedError.")
# (student, lesson) -> exercise -> (outcome, kind, message)
OUTCOMES = {
    ("alice", "01_graph"): {"make_leaf": ("correct", "", ""), "count_nodes": ("correct", "", "")},
    ("bob", "01_graph"): {"make_leaf": ("correct", "", ""),
                          "count_nodes": ("incorrect", "not_leaf", "Incorrect: `y` is not a leaf, it has a grad_fn.")},
    ("dave", "01_graph"): {"make_leaf": ("correct", "", ""), "count_nodes": ("correct", "", "")},
    ("alice", "02_backward"): {"vjp": ("incorrect", "wrong_sign", WRONG_SIGN + "\n(hidden test, seed 7)"),
                               "two_losses": NOT_ATTEMPTED},
    ("bob", "02_backward"): {"vjp": ("incorrect", "wrong_sign", "Incorrect: the sign is flipped (seed 9)."),
                             "two_losses": NOT_ATTEMPTED},
    ("carol", "02_backward"): {"vjp": ("correct", "", ""), "two_losses": NOT_ATTEMPTED},
    ("dave", "02_backward"): {"vjp": ("raised", "none_returned", "vjp returned None: did you forget `return`?"),
                              "two_losses": NOT_ATTEMPTED},
}
# seconds the lesson-2 training cell took per student (nbclient timestamps), and the graded cells
TRAINING = {"alice": 7.25, "bob": 3.0, "carol": 5.0, "dave": 4.0}
TRAINING_SOURCE = "losses = train(model, epochs=500)"


def _source_notebook(lesson: str) -> nbformat.NotebookNode:
    cells = []
    for grade_id, points, kind in LESSONS[lesson]:
        make = nbformat.v4.new_code_cell if kind == "code" else nbformat.v4.new_markdown_cell
        cells.append(make("...", metadata={"nbgrader": {"grade": True, "grade_id": grade_id, "points": points,
                                                        "solution": kind == "markdown", "locked": kind == "code",
                                                        "schema_version": 3}}))
    return nbformat.v4.new_notebook(cells=cells)


def _stamps(start: datetime, seconds: float) -> dict:
    iso = lambda t: t.strftime("%Y-%m-%dT%H:%M:%S.%fZ")  # noqa: E731  (nbclient's format)
    return {"iopub.execute_input": iso(start), "shell.execute_reply": iso(start + timedelta(seconds=seconds))}


def _autograded_notebook(student: str, lesson: str) -> nbformat.NotebookNode:
    start = datetime(2025, 3, 1, 10, 0, 0)
    cells = [nbformat.v4.new_code_cell("import torch", metadata={"execution": _stamps(start, 0.8)})]
    if lesson == "02_backward":
        cells.append(nbformat.v4.new_code_cell(TRAINING_SOURCE, metadata={  # the student's own cell
            "execution": _stamps(start, TRAINING[student]), "nbgrader": {"solution": True, "grade": False}}))
        cells.append(nbformat.v4.new_code_cell("plot_losses(losses)",  # the lesson's: its time is not theirs
                                               metadata={"execution": _stamps(start, 30)}))
    for i, (grade_id, _, kind) in enumerate(LESSONS[lesson]):
        nbgrader = {"grade": True, "grade_id": grade_id, "points": 2}
        if kind == "markdown":
            cells.append(nbformat.v4.new_markdown_cell("my answer", metadata={"nbgrader": nbgrader}))
            continue
        exercise = grade_id.removeprefix("test_")
        outcome, mistake, message = OUTCOMES[(student, lesson)][exercise]
        cells.append(nbformat.v4.new_code_cell(f"check({exercise})", metadata={
            "nbgrader": nbgrader, "execution": _stamps(start, 99),  # `seconds` wins over the timestamps
            "autograd_course": {"exercise": exercise, "outcome": outcome, "kind": mistake,
                                "message": message, "seconds": 0.5 + i / 10}}))
    return nbformat.v4.new_notebook(cells=cells)


@pytest.fixture(scope="module")
def course(tmp_path_factory) -> str:
    root = str(tmp_path_factory.mktemp("course"))
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), root)
    for lesson in LESSONS:
        os.makedirs(os.path.join(root, "source", lesson))
        nbformat.write(_source_notebook(lesson), os.path.join(root, "source", lesson, f"{lesson}.ipynb"))
    # nbgrader.api.Gradebook, opened where the course's own config puts it (and with alembic on PATH)
    with open_api(root).gradebook as gradebook:
        for lesson, cells in LESSONS.items():
            gradebook.add_assignment(lesson)
            gradebook.add_notebook(lesson, lesson)
            # added in reverse so the export cannot pass by relying on insertion order
            for grade_id, points, kind in reversed(cells):
                gradebook.add_grade_cell(grade_id, lesson, lesson, max_score=points, cell_type=kind)
        for student, names in STUDENTS.items():
            gradebook.add_student(student, **names)
        for (student, lesson), grades in GRADES.items():
            gradebook.add_submission(lesson, student)
            for grade_id, (auto, manual) in grades.items():
                grade = gradebook.find_grade(grade_id, lesson, lesson, student)
                grade.auto_score, grade.manual_score = auto, manual
                grade.needs_manual_grade = auto is None and manual is None
            gradebook.db.commit()
        # graded by hand, then flagged again by nbgrader: the answer changed in a resubmission
        gradebook.find_grade("dynamic_graph", "01_graph", "01_graph", "dave").needs_manual_grade = True
        gradebook.db.commit()
    # a zero-byte upload that collect placed and grade could not read: never in the gradebook
    os.makedirs(os.path.join(root, "submitted", "frank", "01_graph"))
    open(os.path.join(root, "submitted", "frank", "01_graph", "01_graph.ipynb"), "wb").close()
    for student, lesson in GRADES:
        folder = os.path.join(root, "autograded", student, lesson)
        os.makedirs(folder)
        nbformat.write(_autograded_notebook(student, lesson), os.path.join(folder, f"{lesson}.ipynb"))
    return root


def _rows(path: str) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


EMPTY = "an empty file (0 bytes of notebook): the upload was empty or failed"
TO_GRADE = "to grade by hand in Formgrader, Manual Grading > {lesson} > {lesson} ({student}'s submission: Show All Names)"
CHANGED = ("the answer to dynamic_graph changed since it was graded by hand: in Formgrader, Manual Grading > "
           "01_graph > 01_graph (dave's submission: Show All Names), check its grade against the new answer and "
           "press Resolve (or give another score)")


def test_grades_csv_has_one_row_per_student_and_lesson_with_its_status(course, tmp_path):
    path = str(tmp_path / "grades.csv")
    assert export.export_grades(course, path) == 10
    assert _rows(path) == [
        ["student", "lesson", "status", "submitted", "score", "max_score", "autograded_score", "autograded_max",
         "manual_score", "manual_max", "late_penalty", "manual_grading_pending", "why", "due", "extension", "late", "group"],
        ["alice", "01_graph", "graded", "yes", "4.5", "5", "3", "3", "1.5", "2", "0", "no", "", "", "", "", ""],
        ["alice", "02_backward", "graded", "yes", "2", "6", "0", "4", "2", "2", "0", "no", "", "", "", "", ""],
        ["bob", "01_graph", "waiting for hand grading", "yes", "1", "5", "1", "3", "0", "2", "0", "yes",
         "dynamic_graph " + TO_GRADE.format(lesson="01_graph", student="bob"), "", "", "", ""],
        ["bob", "02_backward", "graded", "yes", "0", "6", "0", "4", "0", "2", "0", "no", "", "", "", "", ""],
        ["carol", "01_graph", "missing", "no", "", "5", "", "3", "", "2", "", "", "", "", "", "", ""],
        ["carol", "02_backward", "graded", "yes", "2", "6", "2", "4", "0", "2", "0", "no", "", "", "", "", ""],
        ["dave", "01_graph", "hand grade to check", "yes", "5", "5", "3", "3", "2", "2", "0", "yes", CHANGED, "", "", "", ""],
        ["dave", "02_backward", "waiting for hand grading", "yes", "0", "6", "0", "4", "0", "2", "0", "yes",
         "why_scalar " + TO_GRADE.format(lesson="02_backward", student="dave"), "", "", "", ""],
        ["frank", "01_graph", "could not be graded", "yes", "", "5", "", "3", "", "2", "", "", EMPTY, "", "", "", ""],
        ["frank", "02_backward", "missing", "no", "", "6", "", "4", "", "2", "", "", "", "", "", "", ""],
    ]


def test_exercises_csv_has_a_column_per_graded_cell_in_notebook_order(course, tmp_path):
    path = str(tmp_path / "exercises.csv")
    assert export.export_exercises(course, path) == 10
    rows = _rows(path)
    assert rows[:10] == [
        ["student", "lesson", "status", "test_make_leaf", "dynamic_graph", "test_count_nodes",
         "test_vjp", "test_two_losses", "why_scalar"],
        ["alice", "01_graph", "graded", "1", "1.5", "2", "", "", ""],  # the written answer, graded by hand
        ["alice", "02_backward", "graded", "", "", "", "0", "0", "2"],
        ["bob", "01_graph", "waiting for hand grading", "1", "", "0", "", "", ""],  # not graded yet: blank
        ["bob", "02_backward", "graded", "", "", "", "0", "0", "0"],
        ["carol", "01_graph", "missing", "", "", "", "", "", ""],
        ["carol", "02_backward", "graded", "", "", "", "2", "0", "0"],
        ["dave", "01_graph", "hand grade to check", "1", "2", "2", "", "", ""],
        ["dave", "02_backward", "waiting for hand grading", "", "", "", "0", "0", ""],
        ["frank", "01_graph", "could not be graded", "", "", "", "", "", ""],
    ]


CANVAS_HEADER = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "01_graph", "02_backward"]
POINTS_POSSIBLE = ["    Points Possible", "", "", "", "", "5", "6"]


def test_canvas_csv_has_every_roster_student_and_fills_only_finished_lessons(course, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text('student_id,login_id,canvas_id,name\nalice,aliddell,101,"Liddell, Alice"\n'
                      "bob,bbuilder,,\ncarol,ccarroll,103,Carol Carroll\nerin,eerin,105,Erin Early\n"
                      "frank,ffrank,106,Frank Files\n")
    path = str(tmp_path / "canvas.csv")
    result = export.export_canvas(course, path, roster=str(roster))
    assert _rows(path) == [
        CANVAS_HEADER,
        POINTS_POSSIBLE,
        ["Liddell, Alice", "101", "", "aliddell", "", "4.5", "2"],
        ["bob", "", "", "bbuilder", "", "", "0"],  # 01_graph held back: written answer not graded
        ["Carol Carroll", "103", "", "ccarroll", "", "", "2"],  # 01_graph not submitted
        ["Erin Early", "105", "", "eerin", "", "", ""],  # on the roster, submitted nothing: still a row
        ["Frank Files", "106", "", "ffrank", "", "", ""],  # could not be graded: blank, not 0
    ]
    assert result.unmatched == ["dave"]
    assert [(who, status.state) for who, status in result.held_back] == [
        ("bob 01_graph", "waiting for hand grading"), ("frank 01_graph", "could not be graded")]


def test_canvas_csv_without_roster_uses_the_student_id_as_login(course, tmp_path):
    path = str(tmp_path / "canvas.csv")
    result = export.export_canvas(course, path)
    assert _rows(path) == [
        CANVAS_HEADER,
        POINTS_POSSIBLE,
        ["Liddell, Alice", "101", "", "alice", "", "4.5", "2"],  # ID from nbgrader's lms_user_id
        ["bob", "", "", "bob", "", "", "0"],
        ["carol", "", "", "carol", "", "", "2"],
        ["dave", "", "", "dave", "", "", ""],  # a hand grade to check and one to give: both blank
        ["frank", "", "", "frank", "", "", ""],
    ]
    assert result.unmatched == []
    assert result.unmapped == ["01_graph", "02_backward"]


def test_canvas_columns_are_the_configured_assignments_title_and_id(course, tmp_path):
    snapshot = export.read_gradebook(course)
    statuses = export.class_status(course, snapshot)
    path = str(tmp_path / "canvas.csv")
    mapping = {"01_graph": ["Lesson 1: the graph", 81234], "02_backward": ("Lesson 2 (backward)", "81235")}
    result = export.write_canvas(snapshot, path, None, statuses, mapping)
    assert _rows(path)[0][5:] == ["Lesson 1: the graph (81234)", "Lesson 2 (backward) (81235)"]
    assert result.unmapped == []
    parsed = parse_like_canvas(path)
    assert parsed.assignments == [("Lesson 1: the graph", 81234, 5.0), ("Lesson 2 (backward)", 81235, 6.0)]
    assert parsed.changes["101"] == {81234: "4.5", 81235: "2"}  # alice, by Canvas user id
    assert parsed.changes["dave"] == {}, "a blank cell must change nothing in Canvas"


MOODLE_IDS = {"01_graph": {"alice": "3001", "bob": "3002", "frank": "3006"},
              "02_backward": {"alice": "4101", "carol": "40"}}


def test_moodle_worksheets_give_each_lesson_by_participant_id_only_when_graded_to_the_end(course, tmp_path):
    snapshot = export.read_gradebook(course)
    statuses = export.class_status(course, snapshot)
    now = datetime(2026, 3, 9, 8, 30, tzinfo=timezone.utc)
    sheets = export.write_moodle(snapshot, str(tmp_path), statuses, MOODLE_IDS, {"02_backward": 100},
                                 {"alice": "Alice Liddell"}, now)
    stamp = "2026-03-09T08:30:00+00:00"
    assert _rows(tmp_path / "01_graph.csv") == [
        export.MOODLE_HEADER,
        ["Participant 3001", "Alice Liddell", "4.5", "5", stamp],
        ["Participant 3002", "bob", "", "5", stamp],  # a written answer not graded yet: blank
        ["Participant 3006", "frank", "", "5", stamp]]  # could not be graded: blank, not 0
    assert _rows(tmp_path / "02_backward.csv")[1:] == [  # 2 of 6 points on Moodle's 100; the shorter id first
        ["Participant 40", "carol", "33.33", "100", stamp], ["Participant 4101", "Alice Liddell", "33.33", "100", stamp]]
    assert [(s.lesson, s.rows, s.graded, [(who, st.state) for who, st in s.held_back]) for s in sheets] == [
        ("01_graph", 3, 1, [("bob", "waiting for hand grading"), ("frank", "could not be graded")]),
        ("02_backward", 2, 2, [])]
    # read back as Moodle reads it: only finished grades change, a grade edited in Moodle since is kept
    assert parse_like_moodle(str(tmp_path / "01_graph.csv"), 5, {"3001", "3002", "3006"}) == {"3001": 4.5}
    edited = {"3001": now + timedelta(minutes=5)}
    assert parse_like_moodle(str(tmp_path / "01_graph.csv"), 5, {"3001", "3002", "3006"}, edited) == {}
    # on points, a Moodle assignment left at its default maximum of 100 takes them; one of 5 would not take 33.33
    assert parse_like_moodle(str(tmp_path / "02_backward.csv"), 5, {"40", "4101"}) == {}


def test_moodle_worksheets_are_written_for_the_lessons_collected_from_moodle(course, tmp_path, capsys):
    copy = str(tmp_path / "course")
    shutil.copytree(course, copy)
    export.lms_ids.record(copy, {("moodle", lesson, student): participant
                                 for lesson, ids in MOODLE_IDS.items() for student, participant in ids.items()
                                 if lesson == "02_backward"})
    out = str(tmp_path / "exports")
    assert export.run(_parser(command_arguments.export).parse_args(["--root", copy, "--out", out])) == 0
    assert os.listdir(os.path.join(out, "moodle")) == ["02_backward.csv"]
    printed = capsys.readouterr().out
    assert ("wrote 2 Moodle participants to " + os.path.join(out, "moodle", "02_backward.csv") +
            " (2 graded; grades in points: set the Moodle assignment's Maximum grade to 6") in printed


def _parser(add_arguments) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    parser.add_argument("--root")
    add_arguments(parser)
    return parser


def test_export_command_writes_the_three_files(course, tmp_path, capsys):
    out = str(tmp_path / "exports")
    assert export.run(_parser(command_arguments.export).parse_args(["--root", course, "--out", out])) == 0
    assert sorted(os.listdir(out)) == ["canvas.csv", "exercises.csv", "grades.csv"]
    assert _rows(os.path.join(out, "canvas.csv"))[:2] == [CANVAS_HEADER, POINTS_POSSIBLE]
    assert export.run(_parser(command_arguments.export).parse_args(["--root", course, "--out", out, "01_graph"])) == 0
    assert _rows(os.path.join(out, "canvas.csv"))[0] == CANVAS_HEADER[:-1]
    assert {row[1] for row in _rows(os.path.join(out, "grades.csv"))[1:]} == {"01_graph"}
    assert export.run(_parser(command_arguments.export).parse_args(["--root", course, "--out", out, "05_nothing"])) == 2
    assert "not in the gradebook: 05_nothing" in capsys.readouterr().out
    roster = tmp_path / "roster.csv"
    roster.write_text("Student_ID,Login_ID\nalice,a\nbob,b\ncarol,c\n")  # collect's roster: any case
    args = _parser(command_arguments.export).parse_args(["--root", course, "--out", out, "--roster", str(roster), "01_graph", "02_backward"])
    assert export.run(args) == 1, "a student missing from the roster must not pass silently"
    assert "dave: not in the roster" in capsys.readouterr().out
    assert [row[3] for row in _rows(os.path.join(out, "canvas.csv"))[2:]] == ["a", "b", "c"]  # frank: not listed
    roster.write_text("canvas_id\n101\n")
    assert export.run(args) == 2
    assert "student_id" in capsys.readouterr().out


@pytest.fixture(scope="module")
def report_page(course, tmp_path_factory) -> str:
    roster = tmp_path_factory.mktemp("roster") / "roster.csv"
    roster.write_text("student_id\nalice\nbob\ncarol\ndave\nerin\nfrank\n")
    return report.build_report(course, str(tmp_path_factory.mktemp("report")), roster=str(roster))


def _section(page: str, anchor: str) -> str:
    match = re.search(rf'<section id="{anchor}">(.*?)</section>', page, re.S)
    assert match, f"no section {anchor}"
    return match.group(1)


def _table_rows(fragment: str) -> list[list[str]]:
    return [[html.unescape(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
            for row in re.findall(r"<tr>(.*?)</tr>", fragment, re.S) if "<td" in row]


def test_report_embeds_every_chart(report_page):
    out = os.path.dirname(report_page)
    with open(report_page, encoding="utf-8") as handle:
        page = handle.read()
    embedded = re.findall(r'<img src="data:image/png;base64,([^"]+)"', page)
    charts = ["scores.png", "pass_rate.png", "mistakes.png", "slowest_cells.png"]
    assert len(embedded) == len(charts)
    for data, name in zip(embedded, charts):
        with open(os.path.join(out, name), "rb") as handle:
            assert base64.b64decode(data) == handle.read(), f"{name} is not the embedded image"
    assert "http://" not in page and "https://" not in page, "the page must not need the network"


def test_report_groups_mistakes_by_idea_and_leaves_attempts_apart(report_page):
    with open(report_page, encoding="utf-8") as handle:
        section = _section(handle.read(), "mistakes")
    by_idea, _, by_kind = section.partition('<div id="mistake-kinds">')
    assert _table_rows(by_idea) == [
        ["The value itself: sign, shape, dtype, a missing return", "every lesson", "3", "3", "02_backward · vjp",
         WRONG_SIGN],  # wrong_sign twice, none_returned once; first line of the first message
        ["Recording starts with requires_grad; leaves and results", "01_graph §1-2, §5, §7, §9", "1", "1",
         "01_graph · count_nodes", "Incorrect: `y` is not a leaf, it has a grad_fn."],
    ]
    assert _table_rows(by_kind) == [
        ["01_graph", "count_nodes", "not_leaf", "1", "Incorrect: `y` is not a leaf, it has a grad_fn."],
        ["02_backward", "vjp", "wrong_sign", "2", WRONG_SIGN],
        ["02_backward", "vjp", "none_returned", "1", "vjp returned None: did you forget `return`?"],
    ]
    assert "not_attempted" not in section and "two_losses" not in section


def test_every_kind_has_one_idea():
    from autograder.workflow.pages.mistake_ideas import IDEAS, idea_of
    kinds = [kind for idea in IDEAS for kind in idea.kinds]
    assert len(kinds) == len(set(kinds)), "a kind listed under two ideas"
    assert idea_of("no_such_kind").idea == "other: no_such_kind"


def test_report_names_the_exercise_no_one_attempted(report_page):
    with open(report_page, encoding="utf-8") as handle:
        section = _section(handle.read(), "unattempted")
    nobody = section.split("<table>")[0]
    assert "two_losses" in nobody and "02_backward" in nobody
    assert "vjp" not in nobody and "count_nodes" not in nobody
    assert ["02_backward", "two_losses", "0", "4"] in _table_rows(section)
    assert ["02_backward", "vjp", "4", "0"] in _table_rows(section)


def test_report_lists_pass_rates_and_the_slowest_cells_of_the_students_own_code(report_page):
    with open(report_page, encoding="utf-8") as handle:
        page = handle.read()
    outcomes = _table_rows(_section(page, "pass-rate"))
    assert ["02_backward", "vjp", "1", "2", "0", "1", "0", "0", "0"] in outcomes
    slowest = _table_rows(_section(page, "slowest"))
    assert slowest[0] == ["02_backward", TRAINING_SOURCE, "7.25", "4.50", "alice", "4"]
    assert ["02_backward", "test_vjp", "0.50", "0.50", "alice", "4"] in slowest  # `seconds`, not timestamps
    labels = [row[1] for row in slowest]
    assert "import torch" not in labels and "plot_losses(losses)" not in labels  # the lesson's cells


def test_report_accounts_for_every_student(course, tmp_path):
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id\nalice\nbob\ncarol\ndave\nerin\nfrank\n")
    path = report.build_report(course, str(tmp_path / "r"), roster=str(roster))
    with open(path, encoding="utf-8") as handle:
        section = _section(handle.read(), "accounted")
    assert "Submitted nothing</h3><p>erin</p>" in section
    rows = _table_rows(section)
    assert ["01_graph", "carol"] in rows and ["02_backward", "frank"] in rows
    assert ["frank", "01_graph", EMPTY] in rows


def test_no_empty_histogram_for_a_lesson_nobody_submitted(course, tmp_path):
    with open_api(course).gradebook as gradebook:
        gradebook.add_assignment("03_no_grad")
    try:
        path = report.build_report(course, str(tmp_path / "r"), ["01_graph", "02_backward", "03_no_grad"])
        with open(path, encoding="utf-8") as handle:
            section = _section(handle.read(), "scores")
        assert "No graded submission yet for 03_no_grad: no chart for them." in section
        assert section.count("<img") == 1
        with open(report.build_report(course, str(tmp_path / "default")), encoding="utf-8") as handle:
            assert "03_no_grad" not in handle.read(), "a lesson nothing was collected for is left out by default"
    finally:
        with open_api(course).gradebook as gradebook:
            gradebook.remove_assignment("03_no_grad")


def test_report_command_takes_lessons(course, tmp_path, capsys):
    out = str(tmp_path / "one")
    assert report.run(_parser(command_arguments.report).parse_args(["--root", course, "--out", out, "01_graph"])) == 0
    with open(os.path.join(out, "report.html"), encoding="utf-8") as handle:
        page = handle.read()
    assert "02_backward" not in page
    assert report.run(_parser(command_arguments.report).parse_args(["--root", course, "--out", out, "09_nope"])) == 2
    assert "09_nope" in capsys.readouterr().out


@pytest.mark.browser
def test_report_images_load_in_chromium(report_page):
    require_browser()
    import playwright.sync_api as playwright_api
    with playwright_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            requests = []
            page.on("request", lambda request: requests.append(request.url))
            page.goto(Path(report_page).as_uri())
            page.wait_for_load_state("load")
            images = page.eval_on_selector_all(
                "img", "imgs => imgs.map(i => ({alt: i.alt, complete: i.complete, width: i.naturalWidth}))")
            os.makedirs(SCREENSHOTS, exist_ok=True)
            page.screenshot(path=os.path.join(SCREENSHOTS, "report.png"), full_page=True)
        finally:
            browser.close()
    assert len(images) == 4
    assert all(image["complete"] and image["width"] > 0 for image in images), images
    assert all(url.startswith(("file:", "data:")) for url in requests), requests


def test_report_shows_written_answers_and_hand_grades_with_counts_that_agree(report_page):
    page = open(report_page, encoding="utf-8").read()
    written = _section(page, "written")
    summary, each = written.split("<h3>Every answer</h3>")
    # alice graded 1.5; bob not yet; dave's answer changed since it was graded: 3 submissions, 1 graded, 2 pending
    assert _table_rows(summary) == [["01_graph", "dynamic_graph", "3", "1", "2", "1.5", "2"],
                                    ["02_backward", "why_scalar", "4", "3", "1", "0.67", "2"]]
    assert _table_rows(each)[:3] == [["01_graph", "dynamic_graph", "alice", "1.5 / 2", "my answer"],
                                     ["01_graph", "dynamic_graph", "bob", "pending", "my answer"],
                                     ["01_graph", "dynamic_graph", "dave", "pending", "my answer"]]
    assert len(_table_rows(each)) == len(GRADES)
    counted = int(re.search(r"(\d+) submissions ·", page).group(1))
    assert counted == len(GRADES)  # the header counts the gradebook's submissions, as every section does
