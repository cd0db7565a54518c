"""A per-day late policy in a module beside the course's nbgrader_config.py, the lesson's due date from
c.LateWork.due_dates and a student's own from extensions.csv: each penalty counts from the right date.

The policy is the guide's own example (docs/instructor.md, Late work): ``mycourse.PerDayPenalty``
in ``mycourse.py`` beside the config. ``settle`` runs in a process started elsewhere, as a command
run from another folder (``--root``) would, so the module is found only because the course puts its
directory on the import path.
"""
import os
import shutil
import subprocess
import sys
from datetime import datetime

import pytest

from conftest import ROOT
from autograder.course_dir import open_api

POLICY = '''import math
from nbgrader.plugins import LateSubmissionPlugin


class PerDayPenalty(LateSubmissionPlugin):
    """One point per day late, or part of one."""
    def late_submission_penalty(self, student_id, score, total_seconds):
        return min(score, math.ceil(total_seconds / 86400))
'''
HANDED_IN = datetime(2026, 3, 4, 13, 0)  # 1 day 1 hour after the due date below


@pytest.fixture()
def course(tmp_path):
    root = str(tmp_path / "course")
    os.makedirs(root)
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), root)
    with open(os.path.join(root, "nbgrader_config.py"), "a", encoding="utf-8") as config:
        config.write('\nc.AssignLatePenalties.plugin_class = "mycourse.PerDayPenalty"\n'
                     'c.LateWork.due_dates = {"01_graph": "2026-03-03 12:00"}\n')
    with open(os.path.join(root, "mycourse.py"), "w", encoding="utf-8") as module:
        module.write(POLICY)
    with open_api(root).gradebook as gradebook:
        gradebook.add_assignment("01_graph")
        gradebook.add_notebook("01_graph", "01_graph")
        gradebook.add_grade_cell("test_make_leaf", "01_graph", "01_graph", max_score=5, cell_type="code")
        for student in ("ada", "bob"):
            gradebook.add_student(student)
            gradebook.add_submission("01_graph", student, timestamp=HANDED_IN)
            gradebook.find_grade("test_make_leaf", "01_graph", "01_graph", student).auto_score = 5
        gradebook.db.commit()
    with open(os.path.join(root, "extensions.csv"), "w", encoding="utf-8") as handle:
        handle.write("student_id,lesson,due\nbob,01_graph,2026-03-05 12:00\n")
    return root


def _settle_from_elsewhere(root: str) -> subprocess.CompletedProcess:
    code = f"from autograder.workflow.grades import late_penalties; print(late_penalties.settle({root!r}))"
    return subprocess.run([sys.executable, "-c", code], cwd="/", capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": ROOT})


def test_the_policy_beside_the_config_counts_from_each_students_due_date(course):
    done = _settle_from_elsewhere(course)
    assert done.returncode == 0, done.stderr[-2000:]
    with open_api(course).gradebook as gradebook:
        ada, bob = (gradebook.find_submission("01_graph", s) for s in ("ada", "bob"))
        assert ada.assignment.duedate == datetime(2026, 3, 3, 12, 0)  # c.LateWork.due_dates, UTC
        assert ada.total_seconds_late == 25 * 3600 and ada.late_submission_penalty == 2  # two days begun
        assert bob.duedate == datetime(2026, 3, 5, 12, 0) and bob.total_seconds_late == 0  # his extension
        assert not bob.late_submission_penalty
