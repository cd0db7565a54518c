"""Widget ids named after the cell that shows them, so that building a lesson twice gives one file.

A kernel names each widget model with a random uuid; the executed notebook stores every model's
state under that name (``metadata.widgets``) and each view output refers to it. Left random, every
build renamed every model and re-sorted the whole stored state: a change of four cells rewrote
thousands of lines of ``source/`` and ``release/``. Here each model is renamed after the first cell
whose outputs reach it (its view, or a model the view refers to as ``IPY_MODEL_<id>``) and its place
among that cell's models, so a model changes name only when its cell does. Models no output reaches
are named after their place among those.
"""
import hashlib
import json
import re

STATE = "application/vnd.jupyter.widget-state+json"
VIEW = "application/vnd.jupyter.widget-view+json"
REFERENCE = re.compile(r"IPY_MODEL_([0-9A-Za-z_-]+)")


def _name(*parts: str) -> str:
    """A uuid-shaped name (32 hex digits, as a kernel makes them) derived from ``parts`` alone."""
    return hashlib.sha256("/".join(parts).encode()).hexdigest()[:32]


def _views(cell) -> list[str]:
    return [output["data"][VIEW]["model_id"] for output in cell.get("outputs", [])
            if VIEW in output.get("data", {}) and "model_id" in output["data"][VIEW]]


def _reached(start: str, state: dict) -> list[str]:
    """``start`` and every model it refers to, depth first in the order the references appear."""
    found, stack = [], [start]
    while stack:
        model = stack.pop()
        if model in found or model not in state:
            continue
        found.append(model)
        stack.extend(reversed(REFERENCE.findall(json.dumps(state[model], sort_keys=True))))
    return found


def renaming(notebook) -> dict[str, str]:
    """Each stored model's id -> its stable name (empty when the notebook stores no widget state)."""
    state = notebook.metadata.get("widgets", {}).get(STATE, {}).get("state", {})
    names: dict[str, str] = {}
    for cell in notebook.cells:
        count = 0
        for view in _views(cell):
            for model in _reached(view, state):
                if model not in names:
                    names[model] = _name(cell.get("id", ""), str(count))
                    count += 1
    unreached = [model for model in state if model not in names]
    names.update({model: _name("unreached", str(k)) for k, model in enumerate(unreached)})
    return names


def stable_widget_ids(notebook):
    """The notebook with every widget model renamed (``renaming``), in its outputs and stored state."""
    names = renaming(notebook)
    if not names:
        return notebook
    pattern = re.compile("|".join(map(re.escape, sorted(names, key=len, reverse=True))))

    def renamed(value):
        if isinstance(value, str):
            return pattern.sub(lambda found: names[found.group(0)], value)
        if isinstance(value, list):
            return [renamed(item) for item in value]
        if isinstance(value, dict):
            return type(value)((renamed(key), renamed(item)) for key, item in value.items())
        return value

    for cell in notebook.cells:
        if "outputs" in cell:
            cell.outputs = renamed(cell.outputs)
    notebook.metadata["widgets"] = renamed(notebook.metadata["widgets"])
    return notebook
