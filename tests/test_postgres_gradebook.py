"""Grading into a PostgreSQL gradebook: the one line an instructor changes is ``c.CourseDirectory.db_url``.

A throwaway server (tests/postgres_server.py) holds the gradebook of a scratch course; the real
``autograd-course grade --workers 2`` grades six submissions of lesson 2 into it, every score is read
back from PostgreSQL, and a second run grades nothing (resumable, as with SQLite).
"""
import os
import subprocess
import sys

import nbformat
import pytest
from nbgrader.api import Gradebook

from autograder.authoring.release import generate_release
from autograder.authoring.prove import scratch_course
from autograder.authoring.wrong_answers import build_submission, load_corpus, solution_cells, write_submission
from conftest import ROOT
from postgres_server import INSTALL_HINT, missing, postgres_server

LESSON = "02_backward"
NAME = f"{LESSON}.ipynb"
CLI = os.path.join(os.path.dirname(sys.executable), "autograd-course")
WRONG = ("forgot_backward", "no_retain_graph", "two_backward_calls")  # tests/wrong_submissions/02_backward/

_why = missing()
if _why:
    if os.geteuid() == 0 or os.environ.get("CI"):
        pytest.fail(f"the PostgreSQL gradebook test cannot run: {_why}", pytrace=False)
    pytest.skip(f"the PostgreSQL gradebook test needs PostgreSQL: {_why}", allow_module_level=True)
try:
    import psycopg2  # noqa: F401  (SQLAlchemy's driver for postgresql+psycopg2:// URLs)
except ImportError:
    pytest.fail("psycopg2 is not installed: requirements-lock.txt pins psycopg2-binary, `make setup` installs it",
                pytrace=False)


def grade(course: str) -> subprocess.CompletedProcess:
    return subprocess.run([CLI, "--root", course, "grade", "--workers", "2"], capture_output=True, text=True,
                          timeout=1200)


@pytest.fixture(scope="module")
def postgres():
    with postgres_server() as server:
        yield server


@pytest.fixture(scope="module")
def graded(postgres, tmp_path_factory):
    """A scratch course whose gradebook is the PostgreSQL database; its submissions; both grade runs."""
    course = scratch_course(ROOT, str(tmp_path_factory.mktemp("course")), LESSON)
    with open(os.path.join(course, "nbgrader_config.py"), "a") as config:
        config.write(f'\nc.CourseDirectory.db_url = "{postgres.url}"\n')
    generate_release(course, [LESSON])
    source = nbformat.read(os.path.join(course, "source", LESSON, NAME), as_version=4)
    release = nbformat.read(os.path.join(course, "release", LESSON, NAME), as_version=4)
    solutions = solution_cells(source)
    corpus = {a.name: a for a in load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))
              if a.assignment == LESSON}
    points = {c.metadata.nbgrader["grade_id"]: c.metadata.nbgrader["points"] for c in source.cells
              if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")}
    full = sum(points.values())
    first = next(iter(solutions))
    expected = {"solution": full, "blank": 0, "first_only": points[f"test_{first}"]}
    submissions = {"solution": build_submission(release, solutions), "blank": release,
                   "first_only": build_submission(release, {first: solutions[first]})}
    for name in WRONG:
        wrong = corpus[name]
        submissions[f"wrong_{name}"] = build_submission(release, {**solutions, wrong.replaces: wrong.code})
        expected[f"wrong_{name}"] = full - points[wrong.test_id]
    for student, notebook in submissions.items():
        write_submission(course, student, LESSON, NAME, notebook)
    return {"course": course, "expected": expected, "first": grade(course), "again": grade(course)}


def test_the_gradebook_is_postgresql_not_sqlite(graded):
    first = graded["first"]
    assert first.returncode == 0, first.stdout + first.stderr
    assert f"graded {len(graded['expected'])}, failed 0" in first.stdout, first.stdout
    assert not os.path.exists(os.path.join(graded["course"], "gradebook.db"))


def test_every_score_is_in_postgresql(graded, postgres):
    with Gradebook(postgres.url) as gradebook:
        scores = {s.student.id: s.score for s in gradebook.find_assignment(LESSON).submissions}
        max_code = gradebook.find_assignment(LESSON).max_code_score
    assert scores == graded["expected"]
    assert graded["expected"]["solution"] == max_code > 0
    # read back with SQL, not only through nbgrader's own session
    connection = postgres.connect()
    with connection, connection.cursor() as cursor:
        cursor.execute("SELECT student.id, SUM(grade.auto_score) FROM grade "
                       "JOIN submitted_notebook ON grade.notebook_id = submitted_notebook.id "
                       "JOIN submitted_assignment ON submitted_notebook.assignment_id = submitted_assignment.id "
                       "JOIN student ON submitted_assignment.student_id = student.id GROUP BY student.id")
        totals = {student: float(total or 0) for student, total in cursor.fetchall()}
    connection.close()
    assert totals == graded["expected"]


def test_a_second_run_grades_nothing(graded):
    again = graded["again"]
    assert again.returncode == 0, again.stdout + again.stderr
    assert "grading 0 submission(s)" in again.stdout and f"{len(graded['expected'])} already graded" in again.stdout


def test_the_install_hint_names_the_package():
    assert "apt-get install -y postgresql" in INSTALL_HINT
