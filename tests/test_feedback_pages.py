"""A feedback page is returned only while it is true to its submission (records/feedback_pages.py).

A page written for a graded submission is current; a resubmission collected since, a hand grade that
changes the score, or the page changed by hand each make it stale, and it stays out of every LMS
archive until ``feedback`` writes it again. What changed since the last return is told apart from a
page written again from the same grading.
"""
import os
import time

import pytest

from autograder.workflow.grades.export import GradebookSnapshot, GradedCell, Submission
from autograder.workflow.records import feedback_pages
from autograder.workflow.records.status import GRADED, NOT_YET, Status, status_of

LESSON, STUDENT = "01_graph", "ada"
KEY = feedback_pages.Key(STUDENT, LESSON)


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)


@pytest.fixture()
def course(tmp_path):
    root = str(tmp_path)
    _write(os.path.join(root, "submitted", STUDENT, LESSON, f"{LESSON}.ipynb"), "{}")
    _write(os.path.join(root, "autograded", STUDENT, LESSON, f"{LESSON}.ipynb"), '{"graded": 1}')
    _write(feedback_pages.page_path(root, STUDENT, LESSON), "<p>5 / 5</p>")
    return root


def _snapshot(points: float) -> GradebookSnapshot:
    return GradebookSnapshot({LESSON: [GradedCell("test_make_leaf", 5.0, False)]}, [],
                             {(STUDENT, LESSON): Submission(STUDENT, LESSON, {"test_make_leaf": points}, False)})


def _written(root: str, snapshot) -> None:
    feedback_pages.record(root, {KEY: feedback_pages.made_from(root, snapshot, Status(GRADED), STUDENT, LESSON)}, set())


def test_a_page_is_current_until_a_resubmission_is_collected(course):
    snapshot = _snapshot(5)
    _written(course, snapshot)
    assert feedback_pages.current(course, snapshot, {KEY: status_of(course, snapshot, STUDENT, LESSON)}) == {
        KEY: feedback_pages.page_path(course, STUDENT, LESSON)}
    later = time.time() + 5
    os.utime(os.path.join(course, "submitted", STUDENT, LESSON, f"{LESSON}.ipynb"), (later, later))
    now = status_of(course, snapshot, STUDENT, LESSON)
    assert now.state == NOT_YET  # the gradebook's score is the replaced notebook's: nothing of it is shown
    assert feedback_pages.current(course, snapshot, {KEY: now}) == {}


def test_a_changed_score_or_a_page_changed_since_makes_it_stale(course):
    _written(course, _snapshot(5))
    graded = {KEY: Status(GRADED)}
    assert feedback_pages.current(course, _snapshot(3), graded) == {}  # a hand grade since
    _write(feedback_pages.page_path(course, STUDENT, LESSON), "<p>edited</p>")
    assert feedback_pages.current(course, _snapshot(5), graded) == {}


def test_only_a_page_made_from_another_grading_counts_as_changed_since_the_return(course):
    _written(course, _snapshot(5))
    feedback_pages.mark_returned(course, {KEY: feedback_pages.page_path(course, STUDENT, LESSON)}, [LESSON])
    _write(feedback_pages.page_path(course, STUDENT, LESSON), "<p>5 / 5, written again</p>")
    _written(course, _snapshot(5))
    assert feedback_pages.since_return(course) == ([], [], [])
    _written(course, _snapshot(3))
    assert feedback_pages.since_return(course) == ([], [KEY], [])
    feedback_pages.remove(course, STUDENT, LESSON)
    feedback_pages.record(course, {}, {KEY})
    assert feedback_pages.since_return(course) == ([], [], [KEY])
