"""The repository root is the nbgrader course directory: source/, release/, submitted/, ...

Tests copy this file into a temporary course directory, so it must not depend on the cwd.
"""
c = get_config()  # noqa: F821  (provided by nbgrader when it loads this file)

c.CourseDirectory.course_id = "autograd-course"
# Lesson scripts (NN_x.py) are the text form of the notebooks, not files for students.
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "*.py"]

# A hanging submission loses the cell that hangs, not the whole run.
c.Execute.timeout = 120  # seconds per cell, and per trial of a graded exercise
c.Execute.interrupt_on_timeout = True
c.Execute.error_on_timeout = {
    "ename": "CellTimeoutError",
    "evalue": "this cell ran past the time limit and was stopped: an endless loop, or far too much work?",
    "traceback": ["\x1b[0;31mCellTimeoutError\x1b[0m: this cell ran past the time limit and was stopped: "
                  "an endless loop, or far too much work?"],
}

# Grading: the verdict is computed in this process, not in the student's kernel
# (autograder/grading/trusted_execute.py). Every limit a submission meets is set here.
c.TrustedExecute.trials = 3                       # fresh random inputs per graded exercise
c.TrustedExecute.memory_limit = 2 * 1024**3       # bytes of address space per grading kernel
c.TrustedExecute.output_limit = 1_000_000         # bytes one cell may print
c.TrustedExecute.notebook_timeout = 900           # seconds per notebook; the cells after it score 0
c.TrustedExecute.sandbox = True                   # namespaces, hidden course files, no network, user nobody
c.TrustedExecute.warm_kernels = True              # fork each kernel from a parent that has imported torch

# Where `autograd-course grade` grades (autograder/grading/batch_settings.py): local worker
# processes, or a Dask cluster's workers, which need the instructor package and nothing of the course.
c.Fanout.workers = 0                              # local worker processes; 0: one per core
c.Fanout.scheduler = ""                           # a Dask scheduler (tcp://host:port) to grade on instead
c.Fanout.max_submission_bytes = 64 * 1024**2      # a submission's files in all, carried by its grading task
c.Fanout.recording_batch = 200                    # graded submissions recorded per transaction, at most

# Feedback shows outcomes and messages, never the hidden tests or their tracebacks.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.feedback.HideHiddenTests",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]

# Before grading, nbgrader's own sanitising steps, with a pasted copy of a graded cell treated as an
# ordinary cell (not a reason to refuse the notebook), and deleted graded cells put back.
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "autograder.grading.sanitize.ForgetDuplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "nbgrader.preprocessors.OverwriteCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.OverwriteCells.add_missing_cells = True

# autograde's default pipeline, with nbgrader's Execute replaced by TrustedExecute (which also
# survives a kernel that dies: only the cell that killed it loses points).
c.Autograde.autograde_preprocessors = [
    "autograder.grading.trusted_execute.TrustedExecute",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]
