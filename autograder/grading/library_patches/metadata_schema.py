"""nbgrader's cell metadata checked against its schema, with the schema itself checked once per process.

nbgrader validates each graded cell's metadata with ``jsonschema.validate``, which first checks the
schema against its meta-schema: for every cell, several times per notebook (read, checked twice,
written), though the schema never changes. A worker does that for every notebook of a batch. Here the
validator nbgrader calls is built once per schema and kept: the same errors, raised the same way,
without checking the schema again each time (about a millisecond per cell).
"""
import json

import jsonschema
from nbgrader.nbgraderformat import common


class SchemaCheckedOnce:
    """What nbgrader's validator sees as its ``jsonschema`` module: ``validate`` with a validator kept
    per schema; everything else is jsonschema's own."""

    def __init__(self):
        self._validators = {}

    def validate(self, instance, schema) -> None:
        key = json.dumps(schema, sort_keys=True)  # each nbgrader validator reads its own copy of the file
        validator = self._validators.get(key)
        if validator is None:
            cls = jsonschema.validators.validator_for(schema)
            cls.check_schema(schema)
            validator = self._validators[key] = cls(schema)
        error = jsonschema.exceptions.best_match(validator.iter_errors(instance))
        if error is not None:
            raise error

    def __getattr__(self, name):
        return getattr(jsonschema, name)


UPSTREAM = ("nbgrader.nbgraderformat.common.BaseMetadataValidator.validate_cell",)


def apply() -> None:
    """From now on in this process, nbgrader's metadata checks keep their validator."""
    if not isinstance(common.jsonschema, SchemaCheckedOnce):
        common.jsonschema = SchemaCheckedOnce()


def undo() -> None:
    common.jsonschema = jsonschema
