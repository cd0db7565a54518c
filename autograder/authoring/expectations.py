"""Store what each self-check compares with: the references' values for the self-check seeds.

Students' self-checks run without the references, so the expected values for a covering set of seeds
(``self_check_seeds``: together they draw every kind of input the grader draws) are stored beside
the exercises (``course/exercises/expected/<lesson>.json``, package data of the
student package); sealed values (the answers of prediction exercises) are stored only as digests.
``autograd-course build`` writes them; a test fails when they are stale.

Stale means changed beyond what a judge would notice: the values are computed again on whatever CPU
runs the test, and another CPU's vector units may round a float's last bit differently. So floats
are compared within their dtype's tolerance, the judges' own (``course.checks.compare``), and
everything else (structure, shapes, dtypes, autograd flags, digests, integers, strings) exactly.
"""
import json
import math
import os

import torch

from course.checks.compare import close, tolerances
from course.checks.observation import decode, encode
from course.exercise import exercises_of
from course.stored_values import EXPECTED_DIR

from ..grading.judging.verdict import expected_values
from .self_check_seeds import covering_seeds


def expectations(lesson: str) -> dict:
    return {name: {str(seed): encode(expected_values(exercise, seed)) for seed in covering_seeds(exercise)}
            for name, exercise in exercises_of(lesson).items()}


def path_of(lesson: str) -> str:
    return os.path.join(EXPECTED_DIR, f"{lesson}.json")


def text_of(lesson: str, values: dict | None = None) -> str:
    return json.dumps(expectations(lesson) if values is None else values, indent=1, sort_keys=True) + "\n"


def drift(stored, current, where: str = "") -> list[str]:
    """Where two encoded stores differ by more than a judge tolerates ([] when they agree)."""
    if isinstance(stored, dict) and isinstance(current, dict):
        if "__tensor__" in stored or "__ndarray__" in stored:
            return _tensor_drift(stored, current, where)
        if stored.keys() != current.keys():
            return [f"{where or 'top level'}: keys {sorted(stored)} != {sorted(current)}"]
        return [line for key in sorted(stored) for line in drift(stored[key], current[key], f"{where}/{key}")]
    if isinstance(stored, list) and isinstance(current, list):
        if len(stored) != len(current):
            return [f"{where}: {len(stored)} entries stored, {len(current)} now"]
        return [line for i, (s, c) in enumerate(zip(stored, current)) for line in drift(s, c, f"{where}[{i}]")]
    if type(stored) is float or type(current) is float:
        if type(stored) in (int, float) and type(current) in (int, float) and _floats_close(stored, current):
            return []
        return [f"{where}: {stored!r} stored, {current!r} now"]
    return [] if (type(stored), stored) == (type(current), current) else [f"{where}: {stored!r} stored, {current!r} now"]


def _floats_close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    rtol, atol = tolerances(torch.float64)
    return a == b or abs(a - b) <= atol + rtol * abs(b)


def _tensor_drift(stored: dict, current: dict, where: str) -> list[str]:
    header = {k: v for k, v in stored.items() if k != "data"}
    if header != {k: v for k, v in current.items() if k != "data"}:
        return [f"{where}: {header} stored, {({k: v for k, v in current.items() if k != 'data'})} now"]
    a, b = torch.as_tensor(decode(stored)), torch.as_tensor(decode(current))
    if not a.is_floating_point() and not a.is_complex():
        return [] if torch.equal(a, b) else [f"{where}: values changed"]
    both_nan = torch.isnan(a) & torch.isnan(b)
    if torch.equal(torch.isnan(a), torch.isnan(b)) and close(torch.where(both_nan, 0, a), torch.where(both_nan, 0, b)):
        return []
    return [f"{where}: values changed beyond the {a.dtype} tolerance {tolerances(a.dtype)}"]


def _stored(lesson: str):
    with open(path_of(lesson), encoding="utf-8") as handle:
        return json.load(handle)


def stale(lesson: str) -> list[str]:
    """What in the stored file no longer matches the references (the file missing: that, alone)."""
    try:
        stored = _stored(lesson)
    except (OSError, ValueError) as error:
        return [f"{path_of(lesson)}: {error}"]
    return drift(stored, expectations(lesson))


def write(lesson: str) -> str:
    """Store the values again, unless the stored ones still match: another CPU's last bits are no change."""
    current = expectations(lesson)
    try:
        if not drift(_stored(lesson), current):
            return path_of(lesson)
    except (OSError, ValueError):
        pass
    os.makedirs(EXPECTED_DIR, exist_ok=True)
    with open(path_of(lesson), "w", encoding="utf-8") as handle:
        handle.write(text_of(lesson, current))
    return path_of(lesson)
