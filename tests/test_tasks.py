"""A grading task carries what a worker needs: the submission's files (capped, links left out) and
the gradebook rows nbgrader's sanitising steps read, which a worker reads back from a private
gradebook with the course's own gradebook gone and no ``alembic`` on PATH. (The end-to-end proof,
a Dask worker that cannot see the course, is in test_parallel_grading.py.)"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest
from nbgrader.api import Gradebook

from autograder.course_dir import Course
from autograder.grading.batch import tasks
from autograder.grading.batch.tasks import AssignmentRows, SubmissionTooLarge, make_task, private_gradebook

LESSON = "01_x"
KERNELSPEC = {"name": "python3", "display_name": "Python 3", "language": "python"}


@pytest.fixture
def course(tmp_path, monkeypatch):
    """A course folder with a released one-notebook lesson and one student's submission."""
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    root = tmp_path / "course"
    (root / "submitted" / "s1" / LESSON / "data").mkdir(parents=True)
    (root / "nbgrader_config.py").write_text("c = get_config()\n")
    with Gradebook(f"sqlite:///{root / 'gradebook.db'}") as gradebook:
        gradebook.add_assignment(LESSON)
        gradebook.add_notebook(LESSON, LESSON, kernelspec=json.dumps(KERNELSPEC))
        gradebook.add_grade_cell("test_a", LESSON, LESSON, max_score=2, cell_type="code")
        gradebook.add_source_cell("test_a", LESSON, LESSON, cell_type="code", locked=True,
                                  source="check.a(a)", checksum="c0ffee")
    folder = root / "submitted" / "s1" / LESSON
    (folder / f"{LESSON}.ipynb").write_text('{"cells": []}')
    (folder / "scratch.ipynb").write_text("{}")  # not a notebook of the lesson: just a file
    (folder / "data" / "points.csv").write_text("x,y\n1,2\n")
    os.symlink("/etc/passwd", folder / "passwords")  # a link's target is not the student's to send
    return Course(str(root))


def test_a_task_carries_the_submission_split_into_notebooks_and_files(course):
    rows = AssignmentRows.read(course.db_url, LESSON)
    task = make_task(course, rows, "s1", cap=10_000)
    assert task.notebooks == {LESSON: b'{"cells": []}'}
    assert sorted(task.files) == [os.path.join("data", "points.csv"), "scratch.ipynb"]
    assert task.assignment is rows and rows.notebooks == (LESSON,)
    assert [str(left) for left in task.left_out] == ["passwords (a symbolic link)"]
    with pytest.raises(SubmissionTooLarge, match="GradingBatch.max_submission_bytes"):
        make_task(course, rows, "s1", cap=16)


def test_a_worker_reads_the_rows_with_no_gradebook_and_no_alembic(course, monkeypatch, tmp_path):
    monkeypatch.setattr(tasks, "_gradebooks_folder", {"folder": str(tmp_path)})
    rows = AssignmentRows.read(course.db_url, LESSON)
    shutil.rmtree(course.root)  # the worker's machine has no course
    monkeypatch.setenv("PATH", "/nonexistent")
    url = private_gradebook(rows)
    assert private_gradebook(rows) == url  # made once per process
    with Gradebook(url) as gradebook:
        assert gradebook.find_source_cell("test_a", LESSON, LESSON).checksum == "c0ffee"
        assert gradebook.find_graded_cell("test_a", LESSON, LESSON).max_score == 2
        assert json.loads(gradebook.find_notebook(LESSON, LESSON).kernelspec) == KERNELSPEC


def test_a_local_workers_private_gradebooks_are_made_in_its_pools_folder(course, monkeypatch, tmp_path):
    monkeypatch.setattr(tasks, "_private_gradebooks", {})
    monkeypatch.setattr(tasks, "_gradebooks_folder", {"folder": None})
    tasks.keep_gradebooks_in(str(tmp_path))
    url = private_gradebook(AssignmentRows.read(course.db_url, LESSON))
    assert url.startswith(f"sqlite:///{tmp_path}/autograd-gradebook-")


def test_a_lesson_never_released_says_so(course):
    with pytest.raises(LookupError, match="release it first"):
        AssignmentRows.read(course.db_url, "02_not_released")


MAKES_ONE = """import sys
from autograder.grading.batch.tasks import AssignmentRows, private_gradebook
print(private_gradebook(AssignmentRows.read(sys.argv[1], sys.argv[2])), flush=True)"""


def test_a_private_gradebook_made_in_the_systems_tmp_goes_when_its_process_ends(course):
    """A Dask worker's (or the command's): no pool removes it, so its process does, at a normal end."""
    made = subprocess.run([sys.executable, "-c", MAKES_ONE, course.db_url, LESSON], capture_output=True, text=True,
                          timeout=120)
    assert made.returncode == 0, made.stderr
    path = made.stdout.strip()[len("sqlite:///"):]
    assert path.startswith(os.path.join(tempfile.gettempdir(), "autograd-gradebook-"))
    assert not os.path.exists(os.path.dirname(path))
