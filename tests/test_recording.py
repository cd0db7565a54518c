"""What a worker hands the recorder, and the engine the recorder's gradebooks share.

The recorder saves the worker's text as the graded notebook, so that text must be what nbgrader's
own exporter would have written, and an invalid notebook must be refused as nbgrader refuses it.
"""
import os
import sys

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output
from nbgrader.api import Gradebook

from autograder.grading.library_patches import gradebook_engines
from autograder.grading.batch.worker import final_text


def graded_notebook():
    cell = new_code_cell("x = 1\nx", outputs=[new_output("execute_result", {"text/plain": "1"}, execution_count=1)])
    return new_notebook(cells=[cell])


def test_the_final_text_is_what_nbgrader_writes():
    notebook = graded_notebook()
    assert final_text(notebook) == nbformat.writes(notebook, version=4) + "\n"


def test_an_invalid_notebook_is_refused():
    notebook = graded_notebook()
    del notebook.cells[0].outputs[0]["output_type"]
    with pytest.raises(nbformat.ValidationError):
        final_text(notebook)


def test_gradebooks_share_one_engine_per_database(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", os.path.dirname(sys.executable) + os.pathsep + os.environ["PATH"])  # alembic
    gradebook_engines.apply()
    first, second = (f"sqlite:///{tmp_path / name}" for name in ("a.db", "b.db"))
    with Gradebook(first) as one, Gradebook(first) as again, Gradebook(second) as other:
        assert one.engine is again.engine
        assert other.engine is not one.engine
        one.add_student("s1")
        assert [s.id for s in again.students] == ["s1"] and other.students == []
