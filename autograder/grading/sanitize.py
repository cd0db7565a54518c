"""nbgrader's sanitising steps, with one repair: a pasted copy of a graded cell is just a cell.

nbgrader's ``DeduplicateIds`` keeps the last cell with a grade id and empties the nbgrader metadata
of the copies; ``CheckCellMetadata`` then refuses the whole notebook ("Outdated schema version: 0"),
so a student who pasted a test cell twice loses every grade (nbgrader issue #1083). Here a copy
loses its nbgrader metadata altogether: it runs as an ordinary cell, and the original is graded.
"""
from nbgrader.converters.autograde import Autograde
from nbgrader.preprocessors import DeduplicateIds
from traitlets.utils.importstring import import_item


class ForgetDuplicateIds(DeduplicateIds):
    def preprocess_cell(self, cell, resources, cell_index):
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if cell.metadata.get("nbgrader") == {}:
            del cell.metadata["nbgrader"]
        return cell, resources


def sanitize_steps(config) -> list:
    """The sanitising steps autograde runs with this configuration, as classes, in order."""
    steps = config.Autograde.get("sanitize_preprocessors") or Autograde.class_traits()["sanitize_preprocessors"].default()
    return [import_item(step) if isinstance(step, str) else step for step in steps]
