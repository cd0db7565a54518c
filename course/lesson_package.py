"""A lesson's package, ``course/exercises/<lesson>/``: one module per exercise, opened by one call.

Its ``__init__.py`` is ``EXERCISES, CORE, progress, ERROR_SECTIONS = open_lesson(globals())``, which

- imports every module of the folder: each is one exercise, its ``EXERCISE`` named after the module
  (declared once, typed nowhere else);
- binds each exercise under that name in the package, where the lesson's cells call it
  (``check.reset_grads(reset_grads)``). Python had bound the module there; import a module's own parts
  with ``from course.exercises.zero_grad.reset_grads import ...``, which finds the module itself;
- orders the exercises as the lesson does, and reads its core and written answers, from the lesson's
  outline (``outlines/<lesson>.json``), which ``autograd-course build`` derives from the lesson script:
  the order of the files and of their imports means nothing;
- makes the lesson's 'Where am I' (``progress``) and its pointers for autograd errors raised in the
  student's own cells.
"""
import importlib
import json
import os
import pkgutil

from .checks.explain_error import explain_errors_in_cells
from .error_sections import LESSONS, sections_for
from .exercise import Exercise, lesson_module
from .progress import lesson_progress

OUTLINES_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "exercises", "outlines")


def outline_path(lesson: str) -> str:
    return os.path.join(OUTLINES_DIR, f"{lesson}.json")


def read_outline(lesson: str) -> dict:
    """The lesson's outline as the build stored it; an empty one before its first build."""
    try:
        with open(outline_path(lesson), encoding="utf-8") as handle:
            return json.load(handle)
    except FileNotFoundError:
        return {"exercises": [], "written": []}


def exercise_modules(package: str, path) -> dict[str, Exercise]:
    """Each module of a lesson's folder and the exercise it declares, by module name."""
    found = {}
    for info in sorted(pkgutil.iter_modules(path), key=lambda info: info.name):
        module = importlib.import_module(f"{package}.{info.name}")
        exercise = getattr(module, "EXERCISE", None)
        if info.ispkg or not isinstance(exercise, Exercise):
            raise TypeError(f"{module.__name__} declares no EXERCISE: each module of a lesson's folder is one "
                            "exercise (EXERCISE = Exercise(inputs, call, judge, HINTS)); what exercises share "
                            "goes to course/checks/")
        found[info.name] = exercise
    return found


def open_lesson(namespace: dict):
    """``EXERCISES, CORE, progress, ERROR_SECTIONS`` of the lesson package whose ``globals()`` is
    ``namespace``; each exercise is also bound in it under its name."""
    lesson = namespace["__name__"].rsplit(".", 1)[-1]
    found = exercise_modules(namespace["__name__"], namespace["__path__"])
    outline = read_outline(lesson)
    order = [entry["name"] for entry in outline["exercises"] if entry["name"] in found]
    exercises = {name: found[name].named(name, lesson) for name in order + sorted(set(found) - set(order))}
    namespace.update(exercises)
    parts = {entry["name"]: entry["part"] for entry in outline["exercises"] if entry["name"] in found}
    core = tuple(name for name in exercises if parts.get(name) == "core") if "further" in parts.values() else ()
    written = {entry["name"]: entry["points"] for entry in outline["written"]}
    assignment = next(name for name in LESSONS if lesson_module(name) == lesson)
    error_sections = sections_for(assignment)
    explain_errors_in_cells(error_sections)
    return exercises, core, lesson_progress(exercises, core=core, written=written), error_sections
