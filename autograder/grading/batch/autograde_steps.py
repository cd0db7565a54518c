"""autograde's steps, split between a worker and the recorder.

nbgrader's autograde runs two lists of steps on each notebook: the sanitising ones, then the
autograding ones. Only two of them write the gradebook (``SaveAutoGrades``, ``AssignLatePenalties``),
and they only read the notebook. So a worker runs every other step, in nbgrader's order, on its own
copy (the gradebook is only read there); the recorder, the single writer, runs those two. Steps that
came after them in the list (nbgrader's final ``CheckCellMetadata``) run before them in the worker:
the same notebook, because the writing steps leave it as it was. What ``SaveAutoGrades`` reads from
the notebook is read in the worker too (``cell_results``), so the recorder only writes.
"""
from nbgrader import utils
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


def autograde_steps(config) -> list:
    """The autograding steps that do not write the gradebook, as classes, in order."""
    return [s for s in _configured(config, "autograde_preprocessors") if not issubclass(s, WRITES_GRADEBOOK)]


def cell_results(notebook) -> dict[str, dict]:
    """What ``SaveAutoGrades`` reads from a graded notebook, by grade id: a graded cell's
    ``auto_score`` (its ``_add_score``), an answer or task cell's ``auto_comment`` (its ``_add_comment``)."""
    results: dict[str, dict] = {}
    for cell in notebook.cells:
        found = {}
        if utils.is_grade(cell):
            found["auto_score"], _ = utils.determine_grade(cell)
        if utils.is_solution(cell) or utils.is_task(cell):
            unchanged = cell.metadata.nbgrader.get("checksum", None) == utils.compute_checksum(cell)
            found["auto_comment"] = "No response." if unchanged and not utils.is_task(cell) else None
        if found:
            results.setdefault(cell.metadata.nbgrader["grade_id"], {}).update(found)
    return results
