"""The single writer: records what the workers graded, through nbgrader's own autograde.

SQLite allows one writer at a time; workers only read the gradebook, and this recorder, in the
command's own process, writes one submission after another. The same holds for PostgreSQL, where
it keeps nbgrader's own order of operations.

It runs nbgrader's ``Autograde`` converter on each submission, so nbgrader itself checks the
destination, copies the submission's other files, creates the student and the submission (with its
timestamp), zeroes missing notebooks, sets permissions and runs its hooks. Only the per-notebook
part is replaced (``GradedNotebooks``): the worker already ran every step that shapes the notebook
and wrote its final text, so the recorder runs just the steps that write the gradebook
(``steps.py``) and saves that text. nbgrader's own path would read, copy, validate and write each
notebook twice more through nbconvert, on this process's single core.
"""
import os

import nbformat
from nbgrader.converters import Autograde
from nbgrader.utils import capture_log, temp_attrs
from traitlets import Dict

from ..pipeline import root_cause
from .gradebook_engines import share_engines
from .steps import recorder_steps
from .worker import Executed, digest


class GradedNotebooks(Autograde):
    """nbgrader's autograde for a submission a worker has graded: ``graded`` maps each notebook's
    name to the text the worker produced, which is what nbgrader's own run would have written."""

    graded = Dict()

    def convert_single_notebook(self, notebook_filename: str) -> None:
        resources = self.init_single_notebook_resources(notebook_filename)
        text = self.graded[resources["nbgrader"]["notebook"]]
        notebook = nbformat.v4.reads(text)  # the worker validated it
        for step in recorder_steps(self.config):
            notebook, resources = step(config=self.config)(notebook, resources)
        resources["output_extension"] = self.exporter.file_extension
        self.write_single_notebook(text, resources)


class Recorder:
    def __init__(self, course):
        self.course = course
        share_engines()

    def record(self, executed: Executed) -> str | None:
        """Store one executed submission; the reason it could not be stored, else None."""
        if executed.error:
            return executed.error
        submitted = self.course.path("submitted", executed.student, executed.lesson)
        for name, graded in executed.digests.items():
            path = os.path.join(submitted, f"{name}.ipynb")
            if not os.path.exists(path) or digest(path) != graded:
                return "the submission changed while it was being graded: grade it again"
        api = self.course.api
        with temp_attrs(api.coursedir, assignment_id=executed.lesson, student_id=executed.student):
            converter = GradedNotebooks(coursedir=api.coursedir, parent=api, graded=executed.notebooks)
            converter.force, converter.create_student = True, True
            result = capture_log(converter)
        return None if result["success"] else root_cause(result)

