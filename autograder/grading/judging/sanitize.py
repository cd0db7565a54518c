"""nbgrader's sanitising steps, with two repairs: a pasted copy of a graded cell is just a cell, and a
notebook with deleted or reordered graded cells is graded exercise by exercise.

nbgrader's ``DeduplicateIds`` keeps the last cell with a grade id and empties the nbgrader metadata
of the copies; ``CheckCellMetadata`` then refuses the whole notebook ("Outdated schema version: 0"),
so a student who pasted a test cell twice loses every grade (nbgrader issue #1083). Here a copy
loses its nbgrader metadata altogether: it runs as an ordinary cell, and the original is graded.

nbgrader's ``OverwriteCells.add_missing_cells`` puts a deleted check back after the cell before it in
the lesson, and stops with a ``KeyError`` when that cell was deleted too (an answer deleted with its
check): the student lost every point of the lesson. ``RestoreGradedCells`` puts the lesson's cells back
in the lesson's order (a student's own cells move with the graded cell above them), then puts every
deleted answer and check back where the lesson had it, saying so in the cell: a deleted answer comes
back as the lesson gave it (not attempted, 0 points), and every other exercise is graded as usual.
"""
from nbformat import NotebookNode
from nbgrader import utils
from nbgrader.nbgraderformat import MetadataValidator
from nbgrader.preprocessors import DeduplicateIds, OverwriteCells
from traitlets import Unicode


class ForgetDuplicateIds(DeduplicateIds):
    def preprocess_cell(self, cell, resources, cell_index):
        cell, resources = super().preprocess_cell(cell, resources, cell_index)
        if cell.metadata.get("nbgrader") == {}:
            del cell.metadata["nbgrader"]
        return cell, resources


def _grade_id(cell) -> str | None:
    return cell.metadata.get("nbgrader", {}).get("grade_id") if "metadata" in cell else None


class RestoreGradedCells(OverwriteCells):
    """nbgrader's OverwriteCells, then the lesson's graded cells in order and none missing."""

    missing_answer_notice = Unicode(
        "This answer cell was missing from the notebook you handed in (deleted?), so it was put back as "
        "the lesson gave it and its exercise scores 0. Keep every cell the lesson gives you and write "
        "your answer in it.",
        help="What a deleted answer cell says when it is put back (as a comment in a code cell).",
    ).tag(config=True)

    missing_check_notice = Unicode(
        "This check cell was missing from the notebook you handed in (deleted?), so it was put back "
        "as the lesson gave it. Keep every cell the lesson gives you.",
        help="What a deleted check cell says when it is put back (as a comment in a code cell).",
    ).tag(config=True)

    def add_missing_grade_cells(self, nb, resources):
        source_nb = self.gradebook.find_notebook(self.notebook_id, self.assignment_id)
        order = [cell.name for cell in source_nb.source_cells]
        nb.cells = _in_lesson_order(nb.cells, {name: k for k, name in enumerate(order)})
        points = {cell.name: cell.max_score for cell in source_nb.grade_cells}
        answers = {cell.name for cell in source_nb.solution_cells}
        at = 0
        for source_cell in source_nb.source_cells:
            present = [k for k, cell in enumerate(nb.cells) if _grade_id(cell) == source_cell.name]
            if present:
                at = present[0] + 1
            elif source_cell.name in points or source_cell.name in answers:
                self.log.warning("Missing cell %s put back", source_cell.name)
                nb.cells.insert(at, self._put_back(source_cell, points.get(source_cell.name),
                                                   source_cell.name in answers, nb))
                at += 1
        return nb, resources

    def _put_back(self, source_cell, points, is_answer: bool, nb) -> NotebookNode:
        notice = self.missing_answer_notice if is_answer else self.missing_check_notice
        nbgrader = {"grade": points is not None, "solution": is_answer, "locked": source_cell.locked,
                    "grade_id": source_cell.name, "checksum": source_cell.checksum,
                    "cell_type": source_cell.cell_type, "schema_version": 3}
        if points is not None:
            nbgrader["points"] = points
        cell = {"cell_type": source_cell.cell_type, "metadata": {"nbgrader": nbgrader},
                "source": f"{notice}\n\n{source_cell.source}"}
        if source_cell.cell_type == "code":
            comment = "\n".join("# " + line for line in _wrapped(notice))
            cell.update(source=f"{comment}\n{source_cell.source}", execution_count=None, outputs=[])
        if source_cell.name not in {c.get("id") for c in nb.cells}:
            cell["id"] = source_cell.name
        return MetadataValidator().upgrade_cell_metadata(NotebookNode(cell))


def _wrapped(text: str, width: int = 96) -> list[str]:
    import textwrap
    return textwrap.wrap(text, width) or [""]


def _in_lesson_order(cells: list, position: dict[str, int]) -> list:
    """The graded cells in the lesson's order; each of the student's own cells stays after the graded
    cell it followed (cells before the first graded one stay first). Already in order: unchanged."""
    groups, anchor = [[-1, []]], -1
    for cell in cells:
        name = _grade_id(cell)
        if name in position and (utils.is_grade(cell) or utils.is_solution(cell) or utils.is_locked(cell)):
            anchor = position[name]
            groups.append([anchor, []])
        groups[-1][1].append(cell)
    groups.sort(key=lambda group: group[0])  # stable: equal anchors keep the student's order
    return [cell for _, group in groups for cell in group]
