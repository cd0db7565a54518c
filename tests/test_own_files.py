"""Only a submission's own regular files reach the grader: no link is followed, on either path.

The folder below holds what a student can leave beside a notebook (links to the course's source,
its gradebook, a host file, a linked folder, a linked notebook, a named pipe). ``own_files`` keeps
the regular files and names the rest; nbgrader's converters, guarded as ``nbgrader_config.py``
guards them, copy and read only those.
"""
import os

import pytest

from autograder.grading.batch.own_files import find_own_files, guard_nbgrader, own_files


@pytest.fixture
def submission(tmp_path):
    course = tmp_path / "course"
    (course / "source" / "01_x").mkdir(parents=True)
    (course / "source" / "01_x" / "01_x.ipynb").write_text("the solutions")
    (course / "gradebook.db").write_text("every grade")
    folder = course / "submitted" / "alice" / "01_x"
    (folder / "data").mkdir(parents=True)
    (folder / "01_x.ipynb").write_text("{}")
    (folder / "data" / "points.csv").write_text("x,y\n")
    (folder / ".ipynb_checkpoints").mkdir()
    (folder / ".ipynb_checkpoints" / "01_x-checkpoint.ipynb").write_text("{}")
    os.symlink("../../../source/01_x/01_x.ipynb", folder / "notes.txt")
    os.symlink(course / "gradebook.db", folder / "grades.txt")
    os.symlink("/etc", folder / "data" / "etc")
    os.symlink("../../../source/01_x/01_x.ipynb", folder / "answers.ipynb")
    os.mkfifo(folder / "pipe")
    return course, folder


def test_only_regular_files_are_kept_and_the_rest_named(submission):
    course, folder = submission
    files, left = own_files(str(folder), top=str(course))
    assert files == [".ipynb_checkpoints/01_x-checkpoint.ipynb", "01_x.ipynb", "data/points.csv"]
    assert sorted(map(str, left)) == ["answers.ipynb (a symbolic link)", "data/etc (a symbolic link)",
                                      "grades.txt (a symbolic link)", "notes.txt (a symbolic link)",
                                      "pipe (a named pipe)"]


def test_a_folder_reached_through_a_link_gives_nothing(submission, tmp_path):
    course, folder = submission
    os.symlink(course / "source", course / "submitted" / "mallory")
    files, left = own_files(str(course / "submitted" / "mallory" / "01_x"), top=str(course))
    assert files == [] and "link" in str(left[0])


def test_nbgraders_globs_are_kept_but_links_dropped(submission):
    course, folder = submission
    found = find_own_files(str(folder), [".ipynb_checkpoints", "*.ipynb"])
    assert found == [str(folder / "data" / "points.csv")]


def test_nbgraders_converters_copy_and_read_only_own_files(submission):
    """The copying and notebook globbing of nbgrader's base converter, guarded, on the folder above."""
    from nbgrader.converters.base import BaseConverter
    from nbgrader.coursedir import CourseDirectory
    guard_nbgrader()
    guard_nbgrader()  # idempotent: nbgrader may load its config more than once
    course, folder = submission
    coursedir = CourseDirectory(root=str(course))
    coursedir.source_directory, coursedir.submitted_directory, coursedir.autograded_directory = \
        "source", "submitted", "autograded"
    coursedir.assignment_id, coursedir.student_id = "01_x", "alice"

    class Copier(BaseConverter):
        _input_directory = property(lambda self: "submitted")
        _output_directory = property(lambda self: "autograded")

    copier = Copier(coursedir=coursedir)
    copier.init_notebooks()
    assert list(copier.assignments.values()) == [[str(folder / "01_x.ipynb")]]  # not answers.ipynb
    copier.init_assignment("01_x", "alice")
    copied = sorted(os.path.relpath(os.path.join(d, f), course / "autograded")
                    for d, _, names in os.walk(course / "autograded") for f in names)
    assert copied == ["alice/01_x/data/points.csv"]


def test_a_notebook_over_the_cell_or_prose_caps_is_refused_with_its_reason():
    import json

    from autograder.grading.batch.notebook_size import NotebookLimits
    limits = NotebookLimits(max_cells=3, max_prose_bytes=100)
    cell = {"cell_type": "markdown", "source": "x", "metadata": {}}
    assert limits.refusal(json.dumps({"cells": [cell] * 3}).encode()) == ""
    assert "4 cells, over the limit of 3" in limits.refusal(json.dumps({"cells": [cell] * 4}).encode())
    big = {**cell, "attachments": {"a.png": {"image/png": "A" * 200}}}
    assert "bytes of markdown, over the limit of 100" in limits.refusal(json.dumps({"cells": [big]}).encode())
    assert limits.refusal(b"not json") == ""  # nbgrader refuses it, with its own reason
