"""What one worker does for one task: every step of autograde but writing the gradebook.

That is nbgrader's sanitising steps, TrustedExecute and the steps after it (``autograde_steps.py``):
the slow part of autograding (a kernel, the student's cells, the trials) and all the notebook-shaping work.
Everything comes in the task (``tasks.py``): the submission's files, the configuration, the rows of
the gradebook the sanitising steps read. It writes nothing shared and reads nothing of the course:
it returns the graded notebook's final text, with a digest of the file it graded. One recorder then
records it (``recording.py``), so the gradebook keeps its single writer at any number of workers.
"""
import hashlib
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field

import nbformat
from nbformat import validator

from .. import library_patches
from ..kernels.settings import GradingKernels
from .autograde_steps import autograde_steps, cell_results, sanitize_steps
from .tasks import Task, private_gradebook


NO_NOTEBOOKS = "No notebooks found, did you forget to run 'nbgrader generate_assignment'?"  # nbgrader's words


@dataclass
class Executed:
    lesson: str
    student: str
    notebooks: dict[str, str] = field(default_factory=dict)  # notebook name -> graded file's text
    digests: dict[str, str] = field(default_factory=dict)  # notebook name -> sha256 of the file graded
    results: dict[str, dict] = field(default_factory=dict)  # notebook name -> autograde_steps.cell_results of it
    error: str = ""
    seconds: float = 0.0


def _root_cause(error: BaseException) -> str:
    """The error's first line, then the traceback below it, whole: the instructor reads it in
    ``grade``'s summary and ``ungraded/<student>/<lesson>/reason.txt``, the student only the first line."""
    import traceback
    first = f"{type(error).__name__}: {(str(error).strip().splitlines() or [''])[0]}"
    return f"{first}\n{''.join(traceback.format_exception(error)).rstrip()}"


def digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def final_text(notebook) -> str:
    """The graded notebook's file, as nbgrader's exporter would write it: normalised (cell ids
    repaired), validated, and refused if invalid, as nbgrader refuses it after a step."""
    _, notebook = validator.normalize(notebook)
    nbformat.validate(notebook, relax_add_props=True)
    text = nbformat.v4.writes(notebook)  # nbformat.writes without its second, stricter validation
    return text if text.endswith("\n") else text + "\n"


def _write_files(task: Task, folder: str) -> None:
    for relative, data in [*task.files.items(), *((f"{n}.ipynb", d) for n, d in task.notebooks.items())]:
        path = os.path.join(folder, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as handle:
            handle.write(data)


def grade_task(task: Task) -> Executed:
    """Sanitise, execute and check every notebook of one submission, in a scratch folder of its own."""
    started = time.monotonic()
    library_patches.switch(GradingKernels.of(task.config).library_patches)
    result = Executed(task.lesson, task.student, digests=task.digests())
    scratch = tempfile.mkdtemp(prefix=f"grade-{task.student}-{task.lesson}-")
    try:
        if not task.notebooks:
            raise LookupError(NO_NOTEBOOKS)
        db_url = private_gradebook(task.assignment)
        _write_files(task, scratch)
        for name in sorted(task.notebooks):
            resources = {"unique_key": name, "metadata": {"path": scratch},
                         "nbgrader": {"student": task.student, "assignment": task.lesson, "notebook": name,
                                      "db_url": db_url}}
            notebook = nbformat.reads(task.notebooks[name].decode("utf-8"), as_version=4)
            for step in sanitize_steps(task.config):
                notebook, resources = step(config=task.config)(notebook, resources)
            # nbgrader writes the sanitised notebook and reads it again before autograding; the cells
            # its OverwriteCells puts back are plain dicts until then
            notebook = nbformat.from_dict(notebook)
            for step in autograde_steps(task.config):
                notebook, resources = step(config=task.config)(notebook, resources)
            result.notebooks[name] = final_text(notebook)
            result.results[name] = cell_results(notebook)
    except Exception as error:  # this submission cannot be graded; the batch goes on
        result.error = _root_cause(error)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        result.seconds = time.monotonic() - started
    return result
