"""The last lines of every lesson module, declared once: its exercises named, its core, its
'Where am I', and its pointers for autograd errors raised in the student's own cells."""
from .checks.explain_error import explain_errors_in_cells
from .error_sections import LESSONS, sections_for
from .exercise import Exercise, lesson_module, name_exercises
from .progress import lesson_progress


def close_lesson(namespace: dict, core: tuple[str, ...], written: dict[str, int]):
    """``EXERCISES, CORE, progress, ERROR_SECTIONS`` of the lesson module whose ``globals()`` is
    ``namespace``; ``core`` is its first pass, ``written`` its hand-graded answers' points."""
    exercises: dict[str, Exercise] = name_exercises(namespace)
    module = namespace["__name__"].rsplit(".", 1)[-1]
    assignment = next(lesson for lesson in LESSONS if lesson_module(lesson) == module)
    error_sections = sections_for(assignment)
    explain_errors_in_cells(error_sections)
    return exercises, core, lesson_progress(exercises, core=core, written=written), error_sections
