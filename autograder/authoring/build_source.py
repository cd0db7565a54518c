"""Turn a lesson script into its executed source notebook, outputs kept for nbval, and store what is
derived from the script with it: the lesson's outline and the points table of docs/lessons.md.

Building twice gives the same files (``stable_outputs``), so a change to a few cells of a lesson
changes about those cells of ``source/`` and ``release/``.
"""
import glob
import os

import nbformat
from nbclient import NotebookClient

from course.exercise import lesson_module

from . import lesson_outline, points_table
from .lesson_script import read
from .stable_outputs import settled


def lesson_scripts(source_dir: str) -> list[str]:
    """``source/NN_x/NN_x.py``: one script per assignment, named like its folder."""
    return sorted(p for p in glob.glob(os.path.join(source_dir, "*", "*.py"))
                  if os.path.basename(p)[:-3] == os.path.basename(os.path.dirname(p)))


# The backend a student's kernel draws with (ipykernel's own default): a builder's shell that sets
# MPLBACKEND (to Agg, say) would otherwise leave the lesson's figures out of the stored notebook.
INLINE = "module://matplotlib_inline.backend_inline"


def execute(notebook: nbformat.NotebookNode, cwd: str, timeout: int) -> nbformat.NotebookNode:
    client = NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                            resources={"metadata": {"path": cwd}})
    client.execute(env={**os.environ, "MPLBACKEND": INLINE})
    for cell in notebook.cells:  # timing only adds noise to diffs
        cell.metadata.pop("execution", None)
    return notebook


def build(script: str, timeout: int) -> str:
    """Write the executed notebook beside its script, each cell allowed ``timeout`` seconds; its path.

    The lesson's outline is stored first (the notebook's 'Where am I' reads it), and the points table
    of the course's docs/lessons.md, where there is one, is made again from every lesson script."""
    script = os.path.abspath(script)
    lesson = read(script)
    lesson_outline.write(lesson_module(os.path.basename(script)[:-3]), lesson)
    target = script[:-3] + ".ipynb"
    stored = nbformat.read(target, as_version=4) if os.path.exists(target) else None
    nbformat.write(settled(execute(lesson, os.path.dirname(script), timeout), stored), target)
    source_dir = os.path.dirname(os.path.dirname(script))
    guide = os.path.join(os.path.dirname(source_dir), "docs", "lessons.md")
    if os.path.exists(guide):
        points_table.write(guide, lesson_scripts(source_dir))
    return target


def run(args) -> int:
    from ..course_dir import Course
    from . import expectations
    from .settings import Authoring
    timeout = Authoring(config=Course(args.root).config).build_cell_timeout
    for script in lesson_scripts(os.path.join(args.root, "source")):
        if args.lessons and not any(name in script for name in args.lessons):
            continue
        print("stored self-check values", expectations.write(lesson_module(os.path.basename(script)[:-3])))
        print("executed", build(script, timeout))
    return 0
