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
# (autograder/grading/judging/trusted_execute.py). Every limit a submission meets is set here.
c.TrustedExecute.trials = 3                       # fresh random inputs per graded exercise
c.TrustedExecute.replay_seed = None               # None: fresh seeds; a failure's seed (its message shows it) to replay it,
                                                  # e.g. `nbgrader autograde --TrustedExecute.replay_seed=SEED ...`
c.TrustedExecute.output_limit = 1_000_000         # bytes of IOPub messages one cell may send (every type)
c.TrustedExecute.notebook_output_limit = 20_000_000  # bytes of IOPub messages a whole notebook may send
c.TrustedExecute.notebook_timeout = 900           # seconds per notebook, restarts and replays included
c.TrustedExecute.iopub_timeout = 30               # seconds after a cell's reply for its last messages to be read
c.TrustedExecute.max_pictures = 64                # course figures drawn here for one notebook (its kernel describes them)
c.TrustedExecute.picture_seconds = 30.0           # seconds of this process's CPU drawing them, for one notebook

# How grading kernels start, and the fence: each kernel alone in its box, the same whether it starts
# cold, warm or under plain `nbgrader autograde` (autograder/grading/kernels/settings.py declares each).
c.GradingKernels.warm_kernels = True              # fork each kernel from a parent that has imported torch
c.GradingKernels.zygote_timeout = 180             # seconds that parent may take to start serving, imports included
c.GradingKernels.sandbox = True                   # own namespaces, root, user; no network (where the OS allows)
c.GradingKernels.memory_limit = 2 * 1024**3       # bytes: each process's address space, and the box's total
c.GradingKernels.max_processes = 256              # processes and threads of one kernel, children included
c.GradingKernels.cpu_limit = 1.0                  # cores one kernel may keep busy, children included
c.GradingKernels.max_file = 256 * 1024**2         # bytes: the largest file a kernel may write
c.GradingKernels.scratch_size = 512 * 1024**2     # bytes: all it may write (working folder, /tmp, /dev/shm)
c.GradingKernels.first_uid = 60000                # kernels run as uids 60000.., one per live kernel
c.GradingKernels.uid_count = 1000                 # how many kernels may be alive at once
c.GradingKernels.environment = ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"]  # all a kernel inherits

# Where `autograd-course grade` grades (autograder/grading/batch/settings.py): local worker
# processes, or a Dask cluster's workers, which need the instructor package and nothing of the course.
c.GradingBatch.workers = 0                        # local worker processes; 0: one per core
c.GradingBatch.scheduler = ""                     # a Dask scheduler (tcp://host:port) to grade on instead
c.GradingBatch.max_submission_bytes = 64 * 1024**2 # a submission's files in all, carried by its grading task
c.GradingBatch.recording_batch = 200              # graded submissions recorded per transaction, at most
# How much notebook a submission may be, checked at collect and again when grade builds its task
# (autograder/grading/batch/notebook_size.py): a lesson has about 100 cells and 20 kB of markdown.
c.NotebookLimits.max_cells = 1000                 # cells per notebook
c.NotebookLimits.max_prose_bytes = 1_000_000      # bytes of markdown and raw cells (text and attachments)

# Feedback shows outcomes and messages, never the hidden tests or their tracebacks, and a student's
# outputs only as inert text and plain HTML (no script of theirs runs in a browser). The exporter
# sanitises the HTML each cell renders to, writes formulas as MathML (no script, nothing fetched)
# and bounds the time one page may take (autograder/workflow/inert_exporter.py); formgrader's view
# of a submission is made by the same exporter (jupyter-config/instructor/).
c.GenerateFeedback.exporter_class = "autograder.workflow.inert_exporter.InertHTMLExporter"
c.InertHTMLExporter.render_timeout = 30           # seconds per notebook's page; past it the page says why
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.feedback.HideHiddenTests",
    "autograder.feedback.InertOutputs",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]

# Before grading, nbgrader's own sanitising steps, with a pasted copy of a graded cell treated as an
# ordinary cell (not a reason to refuse the notebook), and deleted graded cells put back.
c.Autograde.sanitize_preprocessors = [
    "nbgrader.preprocessors.ClearOutput",
    "autograder.grading.judging.sanitize.ForgetDuplicateIds",
    "nbgrader.preprocessors.OverwriteKernelspec",
    "nbgrader.preprocessors.OverwriteCells",
    "nbgrader.preprocessors.CheckCellMetadata",
]
c.OverwriteCells.add_missing_cells = True

# A submission is its own regular files: nbgrader's converters (autograde, generate_feedback) copy no
# link's target and read no linked notebook, as `autograd-course grade` does (autograder/grading/batch/own_files.py).
from autograder.grading.batch.own_files import guard_nbgrader  # noqa: E402

guard_nbgrader(only_if_imported=True)

# autograde's default pipeline, with nbgrader's Execute replaced by TrustedExecute (which also
# survives a kernel that dies: only the cell that killed it loses points).
c.Autograde.autograde_preprocessors = [
    "autograder.grading.judging.trusted_execute.TrustedExecute",
    "nbgrader.preprocessors.IgnorePattern",
    "nbconvert.preprocessors.ClearMetadataPreprocessor",
    "nbgrader.preprocessors.LimitOutput",
    "nbgrader.preprocessors.SaveAutoGrades",
    "nbgrader.preprocessors.AssignLatePenalties",
    "nbgrader.preprocessors.CheckCellMetadata",
]

# Authoring: how long `build` and `validate` let one cell of a lesson run (autograder/authoring/settings.py).
c.Authoring.build_cell_timeout = 300              # seconds per cell, executing a lesson script's source notebook
c.Authoring.validate_cell_timeout = 300           # seconds per cell, `autograd-course validate`

# ---- The LMS side of the week: collect, export (autograder/workflow/lms_settings.py) ----------
# Limits collect checks before it reads anything (bytes, uncompressed).
c.Collect.max_notebook_bytes = 50 * 1024**2       # per notebook; a lesson notebook is well under 5 MB
c.Collect.max_download_bytes = 4 * 1024**3        # per download, nested zips included
c.Collect.timezone = "UTC"                        # the LMS server's zone, for Blackboard's attempt times
c.Collect.moodle_date_format = "%A, %d %B %Y, %I:%M %p"  # a Moodle grading worksheet's times (English default)
# Canvas: lesson -> [assignment title, assignment id] (the number at the end of the assignment's URL),
# so canvas.csv's columns are "Title (id)" and fill those assignments. Lessons not listed get a
# column named by the lesson, which Canvas imports as a new assignment. For example:
#   c.CanvasExport.assignments = {"01_graph": ["Lesson 1: the graph", 81234]}
c.CanvasExport.assignments = {}
# Moodle: lesson -> its assignment's Maximum grade, so exports/moodle/<lesson>.csv gives scores on it.
# Lessons not listed get their points as they are: set the assignment's Maximum grade to them, as
# Moodle skips a grade above it. For example:
#   c.MoodleExport.maximum_grades = {"02_backward": 100}
c.MoodleExport.maximum_grades = {}

# The gradebook: nbgrader's SQLite file gradebook.db, unless AUTOGRAD_COURSE_DB_URL names another
# (a PostgreSQL server for several graders or a Dask cluster); its password stays out of this file.
import os  # noqa: E402

if os.environ.get("AUTOGRAD_COURSE_DB_URL"):
    c.CourseDirectory.db_url = os.environ["AUTOGRAD_COURSE_DB_URL"]

# ---- The class hub (hub/): nbgrader's exchange, and collect --exchange (workflow/exchange_inbound.py) ----
# release_assignment, the students' fetch and submit, and release_feedback all go through this folder;
# hub/classroom.py makes it sticky (1777), so no student can move the course's folder out of the way.
c.Exchange.root = os.environ.get("AUTOGRAD_COURSE_EXCHANGE", "/srv/nbgrader/exchange")
# A submission counts only when it belongs to the system user it is named for (no student hands in
# work in a classmate's name with `nbgrader submit --student`).
c.ExchangeCollect.check_owner = True
