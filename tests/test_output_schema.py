"""nbformat's check of each new output in a worker: the same verdicts, with the schema's part compiled once."""
import copy

import pytest
from nbformat import ValidationError
from nbformat.v4 import new_code_cell, new_markdown_cell, new_output, nbbase

from autograder.grading import library_patches
from autograder.grading.library_patches import output_schema



@pytest.fixture(autouse=True)
def patched():
    """As a grading worker has them (library_patches.switch, at each task)."""
    library_patches.switch(True)

GOOD = [new_output("stream", text="hello\n"), new_output("stream", name="stderr", text="careful\n"),
        new_output("display_data", data={"image/png": "iVBORw0KGgo=", "text/plain": "<Figure>"}),
        new_output("execute_result", data={"text/plain": "3"}, execution_count=4),
        new_output("error", ename="ValueError", evalue="bad", traceback=["Traceback", "ValueError: bad"])]
WRONG = {"no output_type": {"text": "x"}, "unknown output_type": {"output_type": "telepathy"},
         "stream without a name": {"output_type": "stream", "text": "x"},
         "data not a mapping": {"output_type": "display_data", "data": ["image/png"], "metadata": {}},
         "no execution_count": {"output_type": "execute_result", "data": {}, "metadata": {}},
         "traceback not a list": {"output_type": "error", "ename": "E", "evalue": "", "traceback": "line"},
         "a property of its own": {**GOOD[0], "onload": "alert(1)"},
         "a mime bundle entry not text": {"output_type": "display_data", "data": {"text/plain": 3}, "metadata": {}}}


def test_a_workers_nbformat_checks_outputs_with_the_compiled_part():
    assert nbbase.validate is output_schema.validate


def parts(output) -> list[str]:
    """What it is checked against: the output definition, and its own type's (as ``new_output`` does)."""
    kind = output.get("output_type")
    return ["output", kind] if kind in ("stream", "display_data", "execute_result", "error") else ["output"]


@pytest.mark.parametrize("output", GOOD, ids=lambda o: o["output_type"])
def test_a_valid_output_passes_both_checks(output):
    for part in parts(output):
        output_schema._nbformats_own(copy.deepcopy(output), part)
        output_schema.validate(copy.deepcopy(output), part)


@pytest.mark.parametrize("why", list(WRONG))
def test_a_wrong_output_is_refused_with_nbformats_own_error(why):
    for part in parts(WRONG[why]):
        with pytest.raises(ValidationError) as theirs:
            output_schema._nbformats_own(copy.deepcopy(WRONG[why]), part)
        with pytest.raises(ValidationError) as ours:
            output_schema.validate(copy.deepcopy(WRONG[why]), part)
        assert str(ours.value) == str(theirs.value)


def test_each_part_is_compiled_once_and_cells_are_checked_too(monkeypatch):
    monkeypatch.setattr(output_schema, "_compiled", {})
    compiled = []
    real = output_schema.fastjsonschema.compile
    monkeypatch.setattr(output_schema.fastjsonschema, "compile", lambda schema: compiled.append(schema) or real(schema))
    for _ in range(3):
        new_output("stream", text="x")
    new_markdown_cell("# title")
    new_code_cell("x = 1")
    assert [part["$ref"] for part in compiled] == ["#/definitions/stream", "#/definitions/markdown_cell",
                                                    "#/definitions/code_cell"]
    with pytest.raises(ValidationError):  # a cell refused as nbformat refuses it
        output_schema.validate({"cell_type": "code", "source": 3, "metadata": {}, "outputs": [],
                                "execution_count": None}, "code_cell")
