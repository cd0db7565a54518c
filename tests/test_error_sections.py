"""The one table of where each autograd error is explained: its sections are the lessons' real
headings, and every lesson points somewhere for every error the course explains."""
import os
import re

import pytest

from course.checks.explain_error import KEYS
from course.error_sections import EXPLAINED_IN, LESSONS, SECTIONS, sections_for

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _headings(lesson: str) -> dict[int, str]:
    with open(os.path.join(ROOT, "source", lesson, f"{lesson}.py"), encoding="utf-8") as script:
        found = re.findall(r"^# ## (\d+)\. (.+)$", script.read(), flags=re.M)
    return {int(number): title.replace("`", "").strip() for number, title in found}


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_section_named_is_a_heading_of_its_lesson(lesson):
    headings = _headings(lesson)
    for number, title in SECTIONS[lesson].items():
        assert headings.get(number) == title, f"{lesson} section {number} is {headings.get(number)!r}"


def test_every_pointer_names_a_known_error_and_a_section_that_exists():
    assert set(EXPLAINED_IN) <= KEYS
    for key, where in EXPLAINED_IN.items():
        assert where and all(number in SECTIONS[lesson] for lesson, number in where.items()), key


def test_a_lesson_points_to_its_own_section_else_to_where_the_idea_is_first_taught():
    assert sections_for("02_backward")["freed_graph"] == "section 4, The graph is freed after backward()"
    assert sections_for("01_graph")["freed_graph"] == "lesson 2, section 4"
    assert sections_for("04_zero_grad")["no_graph"] == "lesson 1, section 1"
    assert sections_for("03_no_grad")["grad_none"].startswith("section 5, ")
    assert all(set(sections_for(lesson)) == set(EXPLAINED_IN) for lesson in LESSONS)
