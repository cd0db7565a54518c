"""The repository root is the nbgrader course directory: source/, release/, submitted/, ...

This file sets only what the course changes from nbgrader's and its own defaults. Every setting of the
course, with its default and help, is printed by `autograd-course settings` (and listed in
docs/settings.md); set any of them here as `c.Class.name = value`. Tests copy this file into a
temporary course directory, so it must not depend on the cwd.
"""
import os

c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

c.CourseDirectory.course_id = "autograd-course"
# Lesson scripts (NN_x.py) are the text form of the notebooks, not files for students.
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "*.py"]

# A hanging submission loses the cell that hangs, not the whole run (nbgrader's default: 30 s, then stop).
c.Execute.timeout = 120  # seconds per cell, and per trial of a graded exercise
c.Execute.interrupt_on_timeout = True
c.Execute.error_on_timeout = {
    "ename": "CellTimeoutError",
    "evalue": "this cell ran past the time limit and was stopped: an endless loop, or far too much work?",
    "traceback": ["\x1b[0;31mCellTimeoutError\x1b[0m: this cell ran past the time limit and was stopped: "
                  "an endless loop, or far too much work?"],
}

# Before grading, nbgrader's own sanitising steps, with a pasted copy of a graded cell treated as an
# ordinary cell (not a reason to refuse the notebook), graded cells put back in the lesson's order, and
# deleted answers and checks put back, each saying so (autograder/grading/judging/sanitize.py).
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "autograder.grading.judging.sanitize.ForgetDuplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "autograder.grading.judging.sanitize.RestoreGradedCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.OverwriteCells.add_missing_cells = True

# autograde's default pipeline, with nbgrader's Execute replaced by TrustedExecute: the verdict is computed
# in this process, never in the student's kernel, each kernel is in its box, and a kernel that dies costs
# only the cell that killed it (autograder/grading/judging/trusted_execute.py).
c.Autograde.autograde_preprocessors = [
    "autograder.grading.judging.trusted_execute.TrustedExecute",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# A submission is its own regular files: nbgrader's converters (autograde, generate_feedback) copy no
# link's target and read no linked notebook, as `autograd-course grade` does (autograder/grading/batch/own_files.py).
from autograder.grading.batch.own_files import guard_nbgrader  # noqa: E402

guard_nbgrader(only_if_imported=True)

# Feedback shows outcomes and messages, never the hidden tests or their tracebacks, and a student's
# outputs only as inert text and plain HTML, formulas as MathML (autograder/workflow/pages/inert_exporter.py);
# formgrader's view of a submission is made by the same exporter (jupyter-config/instructor/).
c.GenerateFeedback.exporter_class = "autograder.workflow.pages.inert_exporter.InertHTMLExporter"
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.workflow.pages.feedback.HideHiddenTests",
    "autograder.workflow.pages.feedback.InertOutputs",
    "autograder.workflow.pages.feedback.LateWorkNote",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]

# The gradebook: nbgrader's SQLite file gradebook.db, unless AUTOGRAD_COURSE_DB_URL names another
# (a PostgreSQL server for several graders or a Dask cluster); its password stays out of this file.
if os.environ.get("AUTOGRAD_COURSE_DB_URL"):
    c.CourseDirectory.db_url = os.environ["AUTOGRAD_COURSE_DB_URL"]

# The class hub's exchange (release_assignment, fetch, submit, release_feedback); hub/ makes it so no
# student can move the course's folder away or a classmate's submission (docs/hub.md).
c.Exchange.root = os.environ.get("AUTOGRAD_COURSE_EXCHANGE", "/srv/nbgrader/exchange")
