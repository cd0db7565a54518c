"""``autograd-course``: the instructor's commands. Each wires its arguments to one module."""
import argparse
import atexit
import os
import re
import sys
import warnings

# nbgrader's gradebook session emits SQLAlchemy autoflush notices that say nothing to instructors.
warnings.filterwarnings("ignore", message="Object of type <Submitted")

# Commands import what only they need (torch, nbgrader's API, matplotlib, the workflow's modules):
# `grade` starts its warm parents sooner, and a local worker, which imports this script again, starts sooner.
import importlib  # noqa: E402

from .course_dir import Course  # noqa: E402
from .grading.kernels.fence import UNBOXED_FLAG  # noqa: E402
from .workflow import command_arguments  # noqa: E402


def _workflow(module: str):
    """A workflow command's ``run``, its module imported when the command runs."""
    def run(args) -> int:
        return importlib.import_module(f"{__package__}.workflow.{module}").run(args)
    return run


def _workflow_free(module: str):
    """A command's ``run`` in a module of the instructor package's top, imported when the command runs."""
    def run(args) -> int:
        return importlib.import_module(f"{__package__}.{module}").run(args)
    return run


def _build(args) -> int:
    from course.exercise import lesson_module

    from .authoring import build_source, expectations
    from .authoring.settings import Authoring
    timeout = Authoring(config=Course(args.root).config).build_cell_timeout
    for script in build_source.lesson_scripts(os.path.join(args.root, "source")):
        if args.lessons and not any(name in script for name in args.lessons):
            continue
        print("stored self-check values", expectations.write(lesson_module(os.path.basename(script)[:-3])))
        print("executed", build_source.build(script, timeout))
    return 0


def _release(args) -> int:
    from . import pipeline
    for assignment in pipeline.generate_release(args.root, args.lessons or None):
        print("released", assignment)
    return 0


# The grade command's priority once its warm parents run: its own imports and recording then yield
# the cores to the parents' start, the workers and their kernels (at N = 32 on 2 cores: see benchmarks/results.md).
RECORDER_NICENESS = 10


def _grade(args) -> int:
    from .grading.batch.settings import GradingBatch, default_workers
    from .grading.batch.planning import plan
    from .grading.batch.grading_progress import BatchReport
    from .workflow import hand_grades, status
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
    from .grading.batch.grading_progress import Progress
    from .grading.batch.run import Unboxed, run, start
    from .grading.batch.service_protocol import ServiceRefused
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
    # --- workflow hook (autograder/workflow/hand_grades.py, status.py): hand grades of unchanged
    # answers survive grading again, and why a submission could not be graded is kept for export,
    # feedback and the report. Only these lines around grade_batch touch the workflow.
    noted = hand_grades.before(course, jobs)
    batch = run(course, jobs, workers, scheduler, Progress(len(jobs)), started)
    kept = hand_grades.after(course, noted, set(batch.graded))
    status.record_batch(course.root, list(batch.graded) + list(batch.failed), batch.failed)
    # --- end of the workflow hook
    batch.skipped = skipped
    print("\n".join(batch.lines() + kept.lines()))
    return 1 if batch.failed else 0


def _grading_service(args) -> int:
    from .grading.batch.grading_service import run
    return run(args)


def _feedback(args) -> int:
    """Feedback for every submission graded to the end; one held back while a hand grade is pending
    (written when the next ``feedback`` finds it graded), a page saying why for one that could not be."""
    from . import pipeline
    from .feedback import write_ungraded_page
    from .workflow import export, late_penalties, status
    course = Course(args.root)
    late_penalties.settle(course.root)
    snapshot = export.read_gradebook(course.root)
    try:
        lessons = export.chosen_lessons(course.root, snapshot, args.lessons)
    except ValueError as problem:
        print(f"feedback: {problem}")
        return 2
    states = status.class_status(course.root, snapshot.only(lessons), lessons=lessons)
    code = 0
    for lesson in lessons:
        graded = [s for s in course.students(lesson) if os.path.isdir(course.path("autograded", s, lesson))]
        pending = {s: states[(s, lesson)] for s in graded if states[(s, lesson)].state in (status.WAITING, status.TO_CHECK)}
        students = [s for s in graded if s not in pending]
        problems = pipeline.generate_feedback(course.root, lesson, students) if students else {}
        print(f"{lesson}: feedback for {len(students) - len(problems)} student(s) in feedback/")
        for student, why in problems.items():
            print(f"  no feedback for {student}: {why}")
            code = 1
        for student, state in sorted(pending.items()):
            print(f"  {student}: held back, {state.text} (run feedback again once it is graded)")
        for (student, name), state in sorted(states.items()):
            if name == lesson and state.state == status.UNGRADABLE:
                page = write_ungraded_page(course.path("feedback", student, lesson, f"{lesson}.html"), lesson, state.why)
                print(f"  {student}: could not be graded, {os.path.relpath(page, course.root)} says why: {state.summary}")
    return code


def _validate(args) -> int:
    from .validate import failing_cells
    status, config = 0, Course(args.root).config
    for path in args.notebooks:
        failures = failing_cells(path, config)
        print(f"{path}: {'passes' if not failures else f'{len(failures)} failing test cell(s)'}")
        for failure in failures:
            print("   ", re.sub(r"<[^>]+>", "", failure.strip().splitlines()[-1]) if failure.strip() else "(no message)")
        status = status or (1 if failures else 0)
    return status


def _prove(args) -> int:
    import tempfile

    from .authoring.prove import prove_assignment
    from .grading.batch.run import Unboxed
    from .grading.batch.service_protocol import ServiceRefused
    ok = True
    with tempfile.TemporaryDirectory() as workdir:
        for assignment in args.lessons or Course(args.root).lessons:
            try:
                proof = prove_assignment(args.root, workdir, assignment, args.corpus)
            except (Unboxed, ServiceRefused) as refused:
                print(refused)
                return 2
            print("\n".join(proof.lines()))
            ok = ok and proof.solution_score == proof.max_code_score and proof.blank_score == 0 and \
                all(c.points_lost > 0 and c.message_shown and c.other_tests_intact for c in proof.caught)
    return 0 if ok else 1


def parser() -> argparse.ArgumentParser:
    top = argparse.ArgumentParser(prog="autograd-course", description=__doc__)
    top.add_argument("--root", default=".", help="the course directory (holds nbgrader_config.py)")
    commands = top.add_subparsers(dest="command", required=True)

    def command(name, run, help_, lessons=True):
        sub = commands.add_parser(name, help=help_)
        if lessons:
            sub.add_argument("lessons", nargs="*")
        sub.set_defaults(run=run)
        return sub

    command("build", _build, "store self-check values, execute lesson scripts into source/ notebooks")
    command("release", _release, "generate release/ from source/ with nbgrader")
    sub = command("collect", _workflow("collect_command"), "place an LMS download (zip or folder), or the hub's exchange, into submitted/", lessons=False)
    command_arguments.collect(sub)
    sub = command("grade", _grade, "autograde submitted/ in parallel into the gradebook; resumable")
    sub.add_argument("--student", action="append", help="grade only this student (repeatable)")
    sub.add_argument("--workers", type=int, default=0, help="local worker processes (default: one more than the cores)")
    sub.add_argument("--scheduler", default="", help="a Dask scheduler address, tcp://host:port")
    sub.add_argument("--force", action="store_true", help="grade again what is already graded")
    sub.add_argument(UNBOXED_FLAG, action="store_true",
                     help="where kernels cannot be boxed (not root, no grading service), grade anyway: each "
                          "student's notebook then runs with your rights and can read and change your files")
    sub = command("settings", _workflow_free("course_settings"), "every setting of the course, its default, "
                  "its help and what nbgrader_config.py sets", lessons=False)
    sub.add_argument("--markdown", action="store_true", help="the list as docs/settings.md holds it")
    sub = command("grading-service", _grading_service, "as root: grade tasks sent by instructors' grade commands "
                  "over a Unix socket, each kernel boxed (the class hub runs it)", lessons=False)
    sub.add_argument("--socket", required=True, help="the Unix socket to listen on (its folder: root's alone)")
    sub.add_argument("--allow", action="append", required=True, help="a user it grades for (repeatable)")
    sub.add_argument("--group", default="", help="the group the socket opens to (default: every account; "
                                                 "each connection's user is checked either way)")
    sub.add_argument("--course", default="", help="a root-owned folder holding the nbgrader_config.py to grade with")
    sub.add_argument("--workers", type=int, default=0, help="worker processes (default: one more than the cores)")
    command("feedback", _feedback, "write feedback/ HTML for every graded submission")
    sub = command("export", _workflow("export"), "grades.csv, exercises.csv and canvas.csv from the gradebook", lessons=False)
    command_arguments.export(sub)
    sub = command("report", _workflow("report"), "an item analysis of the class: report/report.html and PNGs", lessons=False)
    command_arguments.report(sub)
    sub = command("validate", _validate, "run a notebook's tests; exit 1 if any fails", lessons=False)
    sub.add_argument("notebooks", nargs="+")
    sub = command("prove", _prove, "grade solution, blank and the wrong-answer corpus in a scratch copy")
    sub.add_argument("--corpus", default="tests/wrong_submissions")
    return top


def main(argv=None, own_process: bool = False) -> int:
    """``own_process``: this process is the command's alone (the console's), so it may lower its
    own priority; a caller in its own process (``prove``, a test) keeps its own."""
    args = parser().parse_args(argv)
    args.own_process = own_process
    return args.run(args)


def console() -> None:
    """The ``autograd-course`` command: ``main``, then an exit that skips the interpreter's teardown.

    That teardown frees every object of nbgrader, SQLAlchemy and Jupyter one by one: a second of
    nothing after a batch's summary. The exit handlers (the warm parents' clean-up, logging) still run.
    """
    status = main(own_process=True)
    sys.stdout.flush()
    sys.stderr.flush()
    atexit._run_exitfuncs()
    os._exit(status or 0)


if __name__ == "__main__":
    console()
