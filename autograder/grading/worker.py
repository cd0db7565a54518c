"""What one worker does for one submission: every step of autograde but writing the gradebook.

That is nbgrader's sanitising steps, TrustedExecute and the steps after it (``steps.py``): the slow
part of autograding (a kernel, the student's cells, the trials) and all the notebook-shaping work.
It writes nothing shared: it returns the graded notebook's final text, with a digest of the file
it graded. One recorder then records it through nbgrader's own autograde (``recording.py``), which
writes it into ``autograded/`` and stores its grades, so the gradebook keeps its single writer at
any number of workers.
"""
import glob
import hashlib
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field

import nbformat
from nbformat import validator

from ..course_dir import load_config
from .gradebook_engines import share_engines
from .steps import worker_steps


@dataclass
class Executed:
    lesson: str
    student: str
    notebooks: dict[str, str] = field(default_factory=dict)  # notebook name -> graded file's text
    digests: dict[str, str] = field(default_factory=dict)  # notebook name -> sha256 of the file graded
    error: str = ""
    seconds: float = 0.0


def _root_cause(error: BaseException) -> str:
    return f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"


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


def execute_submission(root: str, lesson: str, student: str) -> Executed:
    """Sanitise, execute and check every notebook of one submission, in a scratch copy of its folder."""
    started = time.monotonic()
    share_engines()
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
            result.digests[name] = digest(path)
            notebook = nbformat.read(path, as_version=4)
            for step in worker_steps(config):
                notebook, resources = step(config=config)(notebook, resources)
            result.notebooks[name] = final_text(notebook)
    except Exception as error:  # this submission cannot be graded; the batch goes on
        result.error = _root_cause(error)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
        result.seconds = time.monotonic() - started
    return result
