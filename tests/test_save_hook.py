"""Saving source/NN_x/NN_x.ipynb in the instructor's lab rewrites NN_x.py; nothing else is touched."""
import logging
import os
import shutil

import nbformat
import pytest

from autograder.authoring.lesson_script import read
from autograder.authoring.save_hook import lesson_script_for, write_lesson_script
from conftest import ROOT

LESSON = "02_backward"


class FakeContentsManager:
    log = logging.getLogger("test")


def save(path):
    write_lesson_script(model={"type": "notebook", "path": path}, os_path=path, contents_manager=FakeContentsManager())


@pytest.fixture
def lesson(tmp_path):
    folder = tmp_path / "source" / LESSON
    folder.mkdir(parents=True)
    shutil.copy(os.path.join(ROOT, "source", LESSON, f"{LESSON}.py"), folder)
    nbformat.write(read(folder / f"{LESSON}.py"), folder / f"{LESSON}.ipynb")
    return folder


@pytest.mark.parametrize("path, script", [
    ("/c/source/02_backward/02_backward.ipynb", "/c/source/02_backward/02_backward.py"),
    ("/c/release/02_backward/02_backward.ipynb", None),
    ("/c/source/02_backward/scratch.ipynb", None),
    ("/c/source/02_backward/02_backward.py", None),
    ("/c/submitted/ann/02_backward/02_backward.ipynb", None),
])
def test_only_a_lesson_notebook_has_a_script(path, script):
    assert lesson_script_for(path) == script


def test_an_edit_in_the_notebook_reaches_the_script(lesson):
    notebook_path = lesson / f"{LESSON}.ipynb"
    notebook = nbformat.read(notebook_path, as_version=4)
    notebook.cells[0].source += "\n\nEdited in JupyterLab."
    nbformat.write(notebook, notebook_path)
    save(str(notebook_path))
    assert (lesson / f"{LESSON}.py").read_text().startswith("# %% [markdown]\n# # Lesson 2")
    assert "\n#\n# Edited in JupyterLab.\n\n# %%\n" in (lesson / f"{LESSON}.py").read_text()


def test_an_unchanged_script_keeps_its_timestamp(lesson):
    script = lesson / f"{LESSON}.py"
    os.utime(script, (1_000_000, 1_000_000))
    save(str(lesson / f"{LESSON}.ipynb"))
    assert script.stat().st_mtime == 1_000_000


def test_a_notebook_the_script_cannot_express_fails_the_save_and_keeps_the_script(lesson):
    notebook_path, script = lesson / f"{LESSON}.ipynb", lesson / f"{LESSON}.py"
    before = script.read_text()
    notebook = nbformat.read(notebook_path, as_version=4)
    test_cell = next(c for c in notebook.cells if c.id.startswith("test_"))
    test_cell.source += "\nassert True"
    nbformat.write(notebook, notebook_path)
    with pytest.raises(ValueError, match=f"test cell {test_cell.id} must hold exactly"):
        save(str(notebook_path))
    assert script.read_text() == before


def test_other_files_are_left_alone(tmp_path):
    other = tmp_path / "notes.ipynb"
    nbformat.write(nbformat.v4.new_notebook(), other)
    save(str(other))
    write_lesson_script(model={"type": "file"}, os_path=str(tmp_path / "x.py"), contents_manager=FakeContentsManager())
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.ipynb"]
