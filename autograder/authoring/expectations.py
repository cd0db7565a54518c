"""Store what each self-check compares with: the references' values for the self-check seeds.

Students' self-checks run without the references, so the expected values for their fixed seeds are
stored beside the exercises (``course/exercises/expected/<lesson>.json``); sealed values (the
answers of prediction exercises) are stored only as digests. ``autograd-course build`` writes
them; a test fails when they are stale.
"""
import json
import os

from course.checks.observation import encode
from course.exercise import EXPECTED_DIR, SELF_CHECK_SEEDS, exercises_of

from ..grading.verdict import expected_values


def expectations(lesson: str) -> dict:
    return {name: {str(seed): encode(expected_values(exercise, seed)) for seed in SELF_CHECK_SEEDS}
            for name, exercise in exercises_of(lesson).items()}


def path_of(lesson: str) -> str:
    return os.path.join(EXPECTED_DIR, f"{lesson}.json")


def text_of(lesson: str) -> str:
    return json.dumps(expectations(lesson), indent=1, sort_keys=True) + "\n"


def write(lesson: str) -> str:
    os.makedirs(EXPECTED_DIR, exist_ok=True)
    with open(path_of(lesson), "w", encoding="utf-8") as handle:
        handle.write(text_of(lesson))
    return path_of(lesson)
