"""The expected values the build stored for the self-check (``exercises/expected/<lesson>.json``), read
back in the student's kernel: for each exercise, the references' values on a covering set of seeds
(``autograder/authoring/self_check_seeds.py``), sealed where they would give an answer away. A missing
or unreadable file is an install or build problem, and says so, never blaming the answer or the seed.
"""
import json
import os
from functools import lru_cache

from .checks.observation import decode
from .checks.random_inputs import DEMO_SEED

EXPECTED_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "exercises", "expected")


class StoredValuesMissing(RuntimeError):
    """The self-check's stored values are missing or unreadable: an install or build problem, not the answer's."""

    def _render_traceback_(self):
        return [f"StoredValuesMissing: {self}"]


def _fix() -> str:
    return ("Reinstall the course's student package (its wheel carries these files), or, in a checkout "
            "of the course, run `autograd-course build` to store them again.")


@lru_cache(maxsize=None)
def _stored(lesson: str) -> dict:
    path = os.path.join(EXPECTED_DIR, f"{lesson}.json")
    try:
        with open(path, encoding="utf-8") as handle:
            stored = json.load(handle)
    except FileNotFoundError:
        raise StoredValuesMissing(f"the self-check's stored values are missing: {path} does not exist. "
                                  + _fix()) from None
    except (OSError, ValueError) as error:
        raise StoredValuesMissing(f"the self-check's stored values in {path} cannot be read "
                                  f"({type(error).__name__}: {error}). " + _fix()) from None
    if not isinstance(stored, dict):
        raise StoredValuesMissing(f"the self-check's stored values in {path} are not a table. " + _fix())
    return stored


def _of(lesson: str, name: str) -> dict:
    stored = _stored(lesson)
    if not isinstance(stored.get(name), dict) or not stored[name]:
        raise StoredValuesMissing(f"{os.path.join(EXPECTED_DIR, lesson + '.json')} holds no values for "
                                  f"`{name}`: it is older than the lesson. " + _fix())
    return stored[name]


def stored_seeds(lesson: str, name: str) -> list[int]:
    """The seeds stored for an exercise, in the order the self-check judges them: the demo seed first."""
    seeds = sorted(int(seed) for seed in _of(lesson, name))
    return sorted(seeds, key=lambda seed: seed != DEMO_SEED)


def stored_expected(lesson: str, name: str, seed: int):
    """The expected values stored for ``seed`` (None: not one of the stored seeds)."""
    found = _of(lesson, name).get(str(seed))
    return None if found is None else decode(found)
