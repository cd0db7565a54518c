"""The single writer: records what the workers graded, through nbgrader's own autograde.

SQLite allows one writer at a time; workers only read the gradebook, and this recorder, in the
command's own process, writes one submission after another. The same holds for PostgreSQL, where
it keeps nbgrader's own order of operations. It runs only the steps that write the gradebook
(``steps.py``): the rest ran in the worker, off this process's core.
"""
import os

import nbformat

from ..course_dir import open_api
from ..pipeline import root_cause
from .replay import ReplayExecution
from .steps import recorder_steps
from .worker import Executed, digest


class Recorder:
    def __init__(self, course):
        self.course = course
        config = course.config.copy()
        config.Autograde.sanitize_preprocessors = [ReplayExecution]
        config.Autograde.autograde_preprocessors = recorder_steps(course.config)
        self.api = open_api(course.root, config)

    def record(self, executed: Executed) -> str | None:
        """Store one executed submission; the reason it could not be stored, else None."""
        if executed.error:
            return executed.error
        submitted = self.course.path("submitted", executed.student, executed.lesson)
        for name, graded in executed.digests.items():
            path = os.path.join(submitted, f"{name}.ipynb")
            if not os.path.exists(path) or digest(path) != graded:
                return "the submission changed while it was being graded: grade it again"
        for name, text in executed.notebooks.items():
            ReplayExecution.executed[(executed.student, executed.lesson, name)] = nbformat.reads(text, as_version=4)
        try:
            result = self.api.autograde(executed.lesson, executed.student, force=True, create=True)
        except Exception as error:
            result = {"success": False, "error": f"{type(error).__name__}: {error}"}
        finally:
            for name in executed.notebooks:
                ReplayExecution.executed.pop((executed.student, executed.lesson, name), None)
        return None if result["success"] else root_cause(result)


def graded_already(course, lesson: str, student: str) -> bool:
    """Recorded and not resubmitted since: every submitted notebook has a newer autograded copy."""
    submitted = course.path("submitted", student, lesson)
    autograded = course.path("autograded", student, lesson)
    notebooks = [n for n in os.listdir(submitted) if n.endswith(".ipynb")] if os.path.isdir(submitted) else []
    return bool(notebooks) and all(
        os.path.exists(os.path.join(autograded, n)) and
        os.path.getmtime(os.path.join(autograded, n)) >= os.path.getmtime(os.path.join(submitted, n))
        for n in notebooks)
