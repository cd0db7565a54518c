"""nbgrader's metadata checks in a worker: the same verdicts, with the schema itself checked once."""
import copy

import jsonschema
import pytest
from nbformat.v4 import new_code_cell
from nbgrader.nbgraderformat import MetadataValidator, ValidationError, common

from autograder.grading import library_patches
from autograder.grading.library_patches.metadata_schema import SchemaCheckedOnce

GRADED = {"grade": True, "solution": False, "locked": True, "points": 1, "grade_id": "test_one",
          "schema_version": 3, "task": False}
WRONG = [{**GRADED, "points": "one"}, {**GRADED, "grade_id": 7}, {k: v for k, v in GRADED.items() if k != "locked"},
         {**GRADED, "task": "yes"}]


def cell(metadata):
    made = new_code_cell("assert True")
    made.metadata["nbgrader"] = copy.deepcopy(metadata)
    return made


@pytest.fixture(autouse=True)
def patched():
    """As a grading worker has them (library_patches.switch, at each task)."""
    library_patches.switch(True)


def test_a_workers_nbgrader_keeps_its_validator():
    assert isinstance(common.jsonschema, SchemaCheckedOnce)


@pytest.mark.parametrize("metadata", WRONG, ids=["points", "grade_id", "locked_missing", "task"])
def test_wrong_metadata_is_refused_with_jsonschemas_own_error(metadata):
    schema = MetadataValidator().schema
    with pytest.raises(ValidationError) as theirs:
        jsonschema.validate(metadata, schema)
    with pytest.raises(ValidationError) as ours:
        SchemaCheckedOnce().validate(metadata, schema)
    assert (ours.value.message, list(ours.value.path)) == (theirs.value.message, list(theirs.value.path))
    with pytest.raises(ValidationError):  # and so nbgrader's own check refuses the cell
        MetadataValidator().validate_cell(cell(metadata))


def test_the_schema_is_checked_once_per_schema(monkeypatch):
    checked = []
    checker = SchemaCheckedOnce()
    cls = jsonschema.validators.validator_for(MetadataValidator().schema)
    monkeypatch.setattr(cls, "check_schema", classmethod(lambda c, schema: checked.append(schema)))
    for _ in range(3):
        checker.validate(GRADED, MetadataValidator().schema)  # each validator reads its own copy
    assert len(checked) == 1
    checker.validate({"type": "x"}, {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"})
    assert len(checked) == 2


def test_a_broken_schema_is_still_refused():
    with pytest.raises(jsonschema.SchemaError):
        SchemaCheckedOnce().validate({}, {"type": 12})
