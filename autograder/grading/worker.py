"""What one worker does for one submission: nbgrader's sanitising steps, then TrustedExecute.

This is the slow part of autograding (a kernel, imports, the student's cells, the trials), and it
writes nothing shared: it returns the executed notebook as JSON. One recorder then hands it to
nbgrader's own autograde (``replay.py``), which stores grades in the gradebook, so the gradebook
keeps its single writer at any number of workers, and every step after execution is nbgrader's.
"""
import glob
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field

import nbformat

from ..course_dir import load_config
from .sanitize import sanitize_steps
from .trusted_execute import TrustedExecute


@dataclass
class Executed:
    lesson: str
    student: str
    notebooks: dict[str, str] = field(default_factory=dict)  # notebook name -> executed JSON
    error: str = ""
    seconds: float = 0.0


def _root_cause(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"


def execute_submission(root: str, lesson: str, student: str) -> Executed:
    """Sanitise and execute every notebook of one submission, in a scratch copy of its folder."""
    started = time.monotonic()
    result = Executed(lesson, student)
    config = load_config(root)
    folder = os.path.join(os.path.abspath(root), "submitted", student, lesson)
    db_url = config.CourseDirectory.get("db_url") or f"sqlite:///{os.path.join(os.path.abspath(root), 'gradebook.db')}"
    scratch = tempfile.mkdtemp(prefix=f"grade-{student}-{lesson}-")
    try:
        shutil.copytree(folder, scratch, dirs_exist_ok=True)
        for path in sorted(glob.glob(os.path.join(scratch, "*.ipynb"))):
            name = os.path.basename(path)[:-len(".ipynb")]
            resources = {"unique_key": name, "metadata": {"path": scratch},
                         "nbgrader": {"student": student, "assignment": lesson, "notebook": name, "db_url": db_url}}
            notebook = nbformat.read(path, as_version=4)
            for step in sanitize_steps(config):  # the same steps, in the same order, as autograde
                notebook, resources = step(config=config)(notebook, resources)
            notebook, resources = TrustedExecute(config=config)(notebook, resources)
            result.notebooks[name] = nbformat.writes(notebook)
    except Exception as error:  # this submission cannot be graded; the batch goes on
        result.error = _root_cause(error)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        result.seconds = time.monotonic() - started
    return result
