"""Saving a lesson notebook in the instructor's JupyterLab rewrites its lesson script.

``make instructor-lab`` sets ``FileContentsManager.post_save_hook`` to :func:`write_lesson_script`.
When ``source/NN_x/NN_x.ipynb`` is saved (edited with nbgrader's Create Assignment toolbar, say),
``source/NN_x/NN_x.py`` is written from it by :mod:`.lesson_writer`, so the two forms never drift
apart; every other file is left alone. A notebook the script cannot express (a read-only cell, a test
cell with more than its check call) makes the save report an error naming the cell: the notebook
itself is saved, the script keeps its last good text.
"""
import os

import nbformat

from .lesson_writer import write


def lesson_script_for(os_path: str) -> str | None:
    """``.../source/NN_x/NN_x.py`` for ``.../source/NN_x/NN_x.ipynb``; None for any other file."""
    folder, name = os.path.split(os.path.abspath(os_path))
    stem, extension = os.path.splitext(name)
    if extension != ".ipynb" or stem != os.path.basename(folder):
        return None
    if os.path.basename(os.path.dirname(folder)) != "source":
        return None
    return os.path.join(folder, stem + ".py")


def update_lesson_script(notebook_path: str) -> str | None:
    """Rewrite the script of a saved lesson notebook if its text changed; the script's path, or None."""
    script = lesson_script_for(notebook_path)
    if script is None:
        return None
    text = write(nbformat.read(notebook_path, as_version=4))
    old = open(script, encoding="utf-8").read() if os.path.exists(script) else None
    if text != old:  # an unchanged script keeps its timestamp (make, editors, git stay quiet)
        partial = script + ".saving"
        with open(partial, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(partial, script)
    return script


def write_lesson_script(model, os_path, contents_manager, **kwargs) -> None:
    """Jupyter Server's post-save hook signature; see the module doc."""
    if model.get("type") != "notebook":
        return
    script = update_lesson_script(os_path)
    if script:
        contents_manager.log.info("lesson script %s written from %s", script, os_path)
