"""``autograd-course``: the instructor's commands. Each wires its arguments to one module."""
import argparse
import atexit
import os
import sys
import warnings

# nbgrader's gradebook session emits SQLAlchemy autoflush notices that say nothing to instructors.
warnings.filterwarnings("ignore", message="Object of type <Submitted")

# Commands import what only they need (torch, nbgrader's API, matplotlib, the workflow's modules):
# `grade` starts its warm parents sooner, and a local worker, which imports this script again, starts sooner.
import importlib  # noqa: E402

from .grading.kernels.fence import UNBOXED_FLAG  # noqa: E402
from .workflow import command_arguments  # noqa: E402


def _run(module: str):
    """A command's ``run(args)``, in ``module`` of this package, imported only when the command runs."""
    def run(args) -> int:
        return importlib.import_module(f"{__package__}.{module}").run(args)
    return run


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

    command("build", _run("authoring.build_source"), "store self-check values, execute lesson scripts into source/ notebooks")
    command("release", _run("authoring.release"), "generate release/ from source/ with nbgrader")
    sub = command("collect", _run("workflow.collect.command"), "place an LMS download (zip or folder), or the hub's exchange, into submitted/", lessons=False)
    command_arguments.collect(sub)
    sub = command("grade", _run("workflow.grade_command"), "autograde submitted/ in parallel into the gradebook; resumable")
    sub.add_argument("--student", action="append", help="grade only this student (repeatable)")
    sub.add_argument("--workers", type=int, default=0, help="local worker processes (default: one more than the cores)")
    sub.add_argument("--scheduler", default="", help="a Dask scheduler address, tcp://host:port")
    sub.add_argument("--force", action="store_true", help="grade again what is already graded")
    sub.add_argument(UNBOXED_FLAG, action="store_true",
                     help="where kernels cannot be boxed (not root, no grading service), grade anyway: each "
                          "student's notebook then runs with your rights and can read and change your files")
    sub = command("settings", _run("course_settings"), "every setting of the course, its default, "
                  "its help and what nbgrader_config.py sets", lessons=False)
    sub.add_argument("--markdown", action="store_true", help="the list as docs/settings.md holds it")
    sub = command("grading-service", _run("grading.batch.grading_service"), "as root: grade tasks sent by instructors' grade commands "
                  "over a Unix socket, each kernel boxed (the class hub runs it)", lessons=False)
    sub.add_argument("--socket", required=True, help="the Unix socket to listen on (its folder: root's alone)")
    sub.add_argument("--allow", action="append", required=True, help="a user it grades for (repeatable)")
    sub.add_argument("--group", default="", help="the group the socket opens to (default: every account; "
                                                 "each connection's user is checked either way)")
    sub.add_argument("--course", default="", help="a root-owned folder holding the nbgrader_config.py to grade with")
    sub.add_argument("--workers", type=int, default=0, help="worker processes (default: one more than the cores)")
    command("feedback", _run("workflow.pages.feedback_command"), "write feedback/ HTML for every graded submission")
    sub = command("export", _run("workflow.grades.export"), "grades.csv, exercises.csv and canvas.csv from the gradebook", lessons=False)
    command_arguments.export(sub)
    sub = command("report", _run("workflow.pages.report"), "an item analysis of the class: report/report.html and PNGs", lessons=False)
    command_arguments.report(sub)
    sub = command("validate", _run("validate"), "run a notebook's tests; exit 1 if any fails", lessons=False)
    sub.add_argument("notebooks", nargs="+")
    sub = command("prove", _run("authoring.prove"), "grade solution, blank and the wrong-answer corpus in a scratch copy")
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
