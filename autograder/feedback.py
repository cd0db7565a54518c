"""A feedback step that keeps hidden tests hidden.

nbgrader's feedback renders the autograded notebook as it ran: test cells still hold their hidden
region, and a failing cell's traceback quotes the hidden line that raised. This preprocessor
drops the region (reusing nbgrader's own ClearHiddenTests) and cuts tracebacks of graded cells
down to the error's name and message, which our checks write for the student.
"""
import textwrap

from nbgrader.preprocessors import ClearHiddenTests
from nbgrader import utils


WIDTH = 100


class HideHiddenTests(ClearHiddenTests):
    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type == "code" and utils.is_grade(cell):
            self._remove_hidden_test_region(cell)
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    message = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
                    # feedback HTML shows tracebacks unwrapped; keep each line readable
                    output["traceback"] = ["\n".join(textwrap.fill(line, WIDTH) for line in message.splitlines())]
        return cell, resources
