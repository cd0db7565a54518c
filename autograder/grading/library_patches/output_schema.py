"""nbformat's check of each output a kernel sends, with the part of the schema compiled once per process.

nbclient makes every output of a graded notebook with nbformat's ``new_output``, which checks it
against the notebook schema's ``output`` definition. A whole notebook nbformat checks with
fastjsonschema, compiled once; a part of the schema it checks with jsonschema, resolving its
references again for every output (most of a millisecond each, a few dozen outputs per notebook).
Here a part is checked by fastjsonschema, compiled once per part from the very schema file nbformat
reads; only what that refuses goes on to nbformat's own check, which raises nbformat's own error.
"""
import json
import os

import fastjsonschema
from nbformat import validator
from nbformat.v4 import nbbase

AHEAD = ("stream", "display_data", "execute_result", "error", "code_cell")  # the parts a worker checks
_compiled = {}


def validate(node, ref=None) -> None:
    """What ``nbformat.v4.nbbase.validate`` does, in the same verdict."""
    if ref is not None:
        check = _compiled.get(ref) or _compile(ref)
        try:
            check(node)
            return
        except fastjsonschema.JsonSchemaException:
            pass  # refused: nbformat's own check says why
    _nbformats_own(node, ref)


def _compile(ref: str):
    path = os.path.join(os.path.dirname(nbbase.__file__), nbbase.nbformat_schema[nbbase.nbformat, nbbase.nbformat_minor])
    with open(path, encoding="utf-8") as handle:
        schema = json.load(handle)
    part = {"$schema": schema["$schema"], "definitions": schema["definitions"], "$ref": f"#/definitions/{ref}"}
    _compiled[ref] = fastjsonschema.compile(part)
    return _compiled[ref]


_nbformats_own = nbbase.validate


def compile_ahead() -> None:
    """Compile, in the warm parent that forks the workers, what each of them would compile on its own:
    the parts in ``AHEAD``, and nbformat's checks of a whole notebook (strict, as it reads one; with
    properties of their own allowed, as a graded notebook's final text is checked)."""
    for ref in AHEAD:
        _compiled.get(ref) or _compile(ref)
    for relaxed in (False, True):
        validator.get_validator(nbbase.nbformat, nbbase.nbformat_minor, relax_add_props=relaxed)


UPSTREAM = ("nbformat.v4.nbbase.validate", "nbformat.v4.nbbase.new_output", "nbformat.v4.nbbase.new_code_cell")


def apply() -> None:
    """From now on in this process, nbformat checks a new output (or cell) with a compiled part."""
    nbbase.validate = validate


def undo() -> None:
    nbbase.validate = _nbformats_own
