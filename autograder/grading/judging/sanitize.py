"""nbgrader's sanitising steps, with one repair: a pasted copy of a graded cell is just a cell.

nbgrader's ``DeduplicateIds`` keeps the last cell with a grade id and empties the nbgrader metadata
of the copies; ``CheckCellMetadata`` then refuses the whole notebook ("Outdated schema version: 0"),
so a student who pasted a test cell twice loses every grade (nbgrader issue #1083). Here a copy
loses its nbgrader metadata altogether: it runs as an ordinary cell, and the original is graded.
"""
from nbgrader.preprocessors import DeduplicateIds


class ForgetDuplicateIds(DeduplicateIds):
    def preprocess_cell(self, cell, resources, cell_index):
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if cell.metadata.get("nbgrader") == {}:
            del cell.metadata["nbgrader"]
        return cell, resources

