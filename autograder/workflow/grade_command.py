"""`autograd-course grade`: the grading path (``grading/batch/run.py``) with the workflow around it.

Before the batch: what is left to grade, and which files failed as they are (not tried again until a
new one is collected). Around it: hand grades of unchanged answers survive grading again, and why a
submission could not be graded is kept for export, feedback and the report. The command says where it
grades and what boxes the kernels, and refuses where nothing can box them (``run.start``).
"""
import os

from ..course_dir import Course

# The grade command's priority once its warm parents run: its own imports and recording then yield
# the cores to the parents' start, the workers and their kernels (benchmarks/results.md).
RECORDER_NICENESS = 10


def run(args) -> int:
    from ..grading.batch.settings import GradingBatch, default_workers
    from ..grading.batch.planning import plan
    from ..grading.batch.grading_progress import BatchReport
    from .grades import hand_grades
    from .records import status
    course = Course(args.root)
    if args.unboxed_kernels_can_read_my_files:
        course.config.GradingKernels.allow_unboxed = True
    settings = GradingBatch(config=course.config)
    scheduler = args.scheduler or settings.scheduler
    workers = args.workers or settings.workers or default_workers()
    jobs, skipped = plan(course, args.lessons, args.student, args.force)
    jobs, failing = status.unchanged_failures(course, jobs, args.force)  # workflow: what failed as it is
    for (lesson, student), why in failing:
        print(f"not graded again {student} / {lesson}: {why.splitlines()[0]} (the same file as last time; "
              "collect a new one, or --force tries it again)")
    if not jobs:  # nothing to grade: nothing to start
        print(f"grading 0 submission(s); {len(skipped)} already graded")
        print("\n".join(BatchReport(skipped=skipped).lines()))
        return 0
    from ..grading.batch.grading_progress import Progress
    from ..grading.batch.run import Unboxed, start
    from ..grading.batch.run import run as grade_batch
    from ..grading.batch.service_protocol import ServiceRefused
    try:
        started = start(course, scheduler)  # before the hand grades are read: their imports overlap
    except (Unboxed, ServiceRefused) as refused:
        print(refused)
        return 2
    where = f"{workers} local worker(s)" if started.where == "this machine" else started.where
    print(f"grading {len(jobs)} submission(s) on {where}; {len(skipped)} already graded"
          f"{' (--force grades them again)' if skipped else ''}", flush=True)
    print(started.box + ".", flush=True)
    if args.own_process:  # from here this process plans and records: grading goes first
        os.nice(RECORDER_NICENESS)
    # --- workflow hook (autograder/workflow/grades/hand_grades.py, status.py): hand grades of unchanged
    # answers survive grading again, and why a submission could not be graded is kept for export,
    # feedback and the report. Only these lines around grade_batch touch the workflow.
    noted = hand_grades.before(course, jobs)
    batch = grade_batch(course, jobs, workers, scheduler, Progress(len(jobs)), started)
    kept = hand_grades.after(course, noted, set(batch.graded))
    batch.failed = status.record_batch(course.root, list(batch.graded) + list(batch.failed), batch.failed)
    from .grades import late_penalties  # due dates and penalties as every page shows them, formgrader's too
    late_penalties.settle(course.root)
    # --- end of the workflow hook
    batch.skipped = skipped
    print("\n".join(batch.lines() + kept.lines()))
    return 1 if batch.failed else 0
