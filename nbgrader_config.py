"""The repository root is the nbgrader course directory: source/, release/, submitted/, ...

Tests copy this file into a temporary course directory, so it must not depend on the cwd.
"""
c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

c.CourseDirectory.course_id = "autograd-course"
# Lesson scripts (NN_x.py) are the text form of the notebooks, not files for students.
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "*.py"]

# A hanging submission loses the cell that hangs, not the whole run.
c.Execute.timeout = 120
c.Execute.interrupt_on_timeout = True
c.Execute.error_on_timeout = {
    "ename": "CellTimeoutError",
    "evalue": "this cell ran past the time limit and was stopped: an endless loop, or far too much work?",
    "traceback": ["\x1b[0;31mCellTimeoutError\x1b[0m: this cell ran past the time limit and was stopped: "
                  "an endless loop, or far too much work?"],
}

# Feedback shows outcomes and messages, never the hidden tests or their tracebacks.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.feedback.HideHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]

# A submission that kills its kernel loses the cell that killed it, not the whole run: autograde's
# default pipeline, with nbgrader's Execute replaced by autograder.grading.resilient_execute.ResilientExecute.
c.Autograde.autograde_preprocessors = [
    "autograder.grading.resilient_execute.ResilientExecute",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
