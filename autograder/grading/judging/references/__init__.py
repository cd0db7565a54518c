"""The expected values of each exercise, computed with real PyTorch on the grader's side.

One package per lesson, one module per exercise (named like it, beside
``course/exercises/<lesson>/<exercise>.py``), whose ``expected(inputs)`` takes the trial's inputs and
returns the expected values its ``judge`` reads. These are the answers: students never get them,
and the grading kernel cannot read them.
"""
import importlib
import pkgutil


def reference(lesson: str, name: str):
    """The ``expected`` function of exercise ``name`` of ``lesson``."""
    return importlib.import_module(f"{__name__}.{lesson}.{name}").expected


def import_each(package: str, path) -> None:
    """Import every exercise's reference of a lesson's package, so that importing the lesson warms them
    all (the local workers' fork server imports each lesson once, before it forks)."""
    for info in pkgutil.iter_modules(path):
        importlib.import_module(f"{package}.{info.name}")
