"""autograde's steps, split between a worker and the recorder.

nbgrader's autograde runs two lists of steps on each notebook: the sanitising ones, then the
autograding ones. Only two of them write the gradebook (``SaveAutoGrades``, ``AssignLatePenalties``),
and they only read the notebook. So a worker runs every other step, in nbgrader's order, on its own
copy (the gradebook is only read there); the recorder, the single writer, runs those two. Steps that
came after them in the list (nbgrader's final ``CheckCellMetadata``) run before them in the worker:
the same notebook, because the writing steps leave it as it was.
"""
from nbgrader.converters.autograde import Autograde
from nbgrader.preprocessors import AssignLatePenalties, SaveAutoGrades
from traitlets.utils.importstring import import_item

WRITES_GRADEBOOK = (SaveAutoGrades, AssignLatePenalties)


def _configured(config, which: str) -> list:
    steps = config.Autograde.get(which) or Autograde.class_traits()[which].default()
    return [import_item(step) if isinstance(step, str) else step for step in steps]


def sanitize_steps(config) -> list:
    """The sanitising steps autograde runs with this configuration, as classes, in order."""
    return _configured(config, "sanitize_preprocessors")


def worker_steps(config) -> list:
    """Everything autograde runs on a notebook except writing the gradebook, in autograde's order."""
    return sanitize_steps(config) + [s for s in _configured(config, "autograde_preprocessors")
                                     if not issubclass(s, WRITES_GRADEBOOK)]


def recorder_steps(config) -> list:
    """The steps that write the gradebook, as classes, in autograde's order."""
    return [s for s in _configured(config, "autograde_preprocessors") if issubclass(s, WRITES_GRADEBOOK)]
