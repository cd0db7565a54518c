"""An executed lesson made the same from build to build, so that its diff shows only what changed.

A kernel's run differs from the last in ways no reader cares about: where Python put an object
(``<MulBackward0 object at 0x7f...>``), how a stream was cut into messages, the random names of widget
models. ``settled`` takes those out of a fresh run: streams joined as nbconvert joins them, widget
models named after their cells (``widget_ids``), and each cell whose outputs differ from the stored
notebook's only by object addresses keeps the stored outputs. Execution counts stay (nbval needs a
count on every cell with outputs): a cell added near the top renumbers the later ones, a line each.
"""
import copy
import re

from nbconvert.preprocessors import CoalesceStreamsPreprocessor

from .widget_ids import stable_widget_ids

ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def _addresses_hidden(value):
    """``value`` without object addresses or execution counts, the two things every run changes."""
    if isinstance(value, str):
        return ADDRESS.sub(" at 0x", value)
    if isinstance(value, list):
        return [_addresses_hidden(item) for item in value]
    if isinstance(value, dict):
        return {key: _addresses_hidden(item) for key, item in value.items() if key != "execution_count"}
    return value


def _kept(stored_outputs: list, count) -> list:
    """The stored outputs, with this run's execution count."""
    outputs = copy.deepcopy(stored_outputs)
    for output in outputs:
        if "execution_count" in output:
            output.execution_count = count
    return outputs


def _same_run(fresh, stored) -> bool:
    """The same cell, printing the same things but for where its objects happened to live."""
    return (fresh.cell_type == stored.cell_type == "code" and fresh.source == stored.source
            and _addresses_hidden(fresh.outputs) == _addresses_hidden(stored.outputs))


def settled(executed, stored=None):
    """``executed`` as it is stored: see the module's docstring. ``stored`` is the notebook the last
    build wrote (None for the first build)."""
    notebook, _ = CoalesceStreamsPreprocessor().preprocess(copy.deepcopy(executed), {})
    notebook = stable_widget_ids(notebook)
    before = {cell.get("id"): cell for cell in (stored.cells if stored is not None else [])}
    for cell in notebook.cells:
        old = before.get(cell.get("id"))
        if old is not None and _same_run(cell, old):
            cell.outputs = _kept(old.outputs, cell.execution_count)
    return notebook
