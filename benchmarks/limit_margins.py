"""How far honest work stays from each wall-clock limit of grading: the margins a loaded machine eats.

    .venv/bin/python benchmarks/limit_margins.py [--busy N]

Grades each lesson's full solution with ``autograd-course grade`` (one worker, in a scratch course)
and reads, from the autograded notebook, its slowest cell (a graded exercise's trials, or a cell
of its own) and all its cells together; times the whole ``grade`` run (the warm parent's start and
the kernel's included); times this process's CPU reading the messages of a cell that fills its
output limit; writes the solution's feedback with nbgrader's ``generate_feedback``. Prints each against the limit that charges it
(their defaults, from the classes that declare them) and the margin, limit / measured. ``--busy N``
keeps N other processes spinning meanwhile, to see what a shared machine leaves of each margin.
"""
import argparse
import io
import json
import logging
import os
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from datetime import datetime

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
LESSONS = ["01_graph", "02_backward", "03_no_grad", "04_zero_grad"]


def cell_seconds(notebook: dict) -> list[float]:
    """Each code cell's time as grading recorded it: the trials' own timing, else busy to idle."""
    seconds = []
    for cell in notebook["cells"]:
        graded = cell.get("metadata", {}).get("autograd_course")
        stamps = cell.get("metadata", {}).get("execution") or {}
        if graded:
            seconds.append(graded["seconds"])
        elif "iopub.status.busy" in stamps and "iopub.status.idle" in stamps:
            seconds.append((datetime.fromisoformat(stamps["iopub.status.idle"])
                            - datetime.fromisoformat(stamps["iopub.status.busy"])).total_seconds())
    return seconds


def grade_solution(lesson: str) -> tuple[float, list[float], str]:
    """``grade`` on the lesson's full solution: the run's seconds, each cell's, and the autograded file."""
    import nbformat

    from autograder.authoring.release import generate_release

    from autograder.authoring.prove import SOLUTION, scratch_course
    from autograder.authoring.wrong_answers import build_submission, solution_cells, write_submission
    from autograder.cli import main
    root = scratch_course(ROOT, tempfile.mkdtemp(prefix="limit-margins-"), lesson)
    generate_release(root, [lesson])
    release = nbformat.read(os.path.join(root, "release", lesson, f"{lesson}.ipynb"), as_version=4)
    solutions = solution_cells(nbformat.read(os.path.join(root, "source", lesson, f"{lesson}.ipynb"), as_version=4))
    write_submission(root, SOLUTION, lesson, f"{lesson}.ipynb", build_submission(release, solutions))
    started = time.monotonic()
    with redirect_stdout(io.StringIO()):
        main(["--root", root, "grade", "--workers", "1"])
    seconds = time.monotonic() - started
    path = os.path.join(root, "autograded", SOLUTION, lesson, f"{lesson}.ipynb")
    with open(path, encoding="utf-8") as handle:
        return seconds, cell_seconds(json.load(handle)), path


def reading_a_full_cell(limit: int) -> float:
    """This process's CPU to read ``limit`` bytes of small display messages, as grading reads them."""
    import nbformat
    from jupyter_client.session import Session

    from autograder.grading.library_patches import switch
    from autograder.grading.judging.output_caps import OutputCaps
    from autograder.grading.judging.pictures import Pictures
    from autograder.grading.judging.trusted_execute import TrustedExecute
    from autograder.grading.kernels.manager import BoundedSession
    switch(True)  # the grading process's patches, as grade applies them
    sender, reader = Session(key=b"k"), BoundedSession(key=b"k")
    parent, wires, size = sender.msg("execute_request", {}), [], 0
    while size < limit:
        frames = sender.serialize(sender.msg("display_data", {"data": {"text/plain": str(len(wires))}, "metadata": {},
                                                              "transient": {}}, parent=parent))[1:]
        size += sum(len(frame) for frame in frames)
        wires.append(frames)
    executor = TrustedExecute()
    executor.nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x")])
    executor._caps = OutputCaps(10 * limit, 10 * limit, lambda: None, logging.getLogger("margins"))
    executor._pictures, executor._asking = Pictures(64, 30, limit), False
    cell = executor.nb.cells[0]
    cell.metadata["execution"] = {}
    started = time.process_time()
    for frames in wires:
        executor.process_message(reader.deserialize(frames), cell, 0)
    return time.process_time() - started


def rendering(path: str) -> float:
    """nbgrader's ``generate_feedback`` of the autograded notebook at ``path``, with the course's exporter."""
    from autograder.workflow.pages import feedback_command
    from autograder.authoring.prove import SOLUTION
    lesson = os.path.basename(os.path.dirname(path))
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(path))))
    started = time.monotonic()
    problems = feedback_command.generate_feedback(root, lesson, [SOLUTION])
    assert not problems, problems
    return time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--busy", type=int, default=0, help="other processes kept spinning meanwhile")
    args = parser.parse_args()
    from autograder.grading.judging.trusted_execute import TrustedExecute
    from autograder.workflow.pages.inert_exporter import InertHTMLExporter
    limits = TrustedExecute()
    cell_limit, notebook_limit = 120, limits.notebook_timeout  # Execute.timeout as nbgrader_config.py sets it
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(args.busy)]
    try:
        graded = {lesson: grade_solution(lesson) for lesson in LESSONS}
        read = reading_a_full_cell(limits.output_limit)
        page = rendering(graded["04_zero_grad"][2])
        load = os.getloadavg()[0]
    finally:
        for process in spinning:
            process.kill()
    print(f"{args.busy} busy processes, load {load:.1f} on {os.cpu_count()} cores")
    print(f"{'measured':60s} {'seconds':>8s} {'limit':>6s} {'margin':>7s}")
    rows = []
    for lesson, (run, cells, _) in graded.items():
        rows += [(f"{lesson}: slowest cell (cell or trial timeout)", max(cells), cell_limit),
                 (f"{lesson}: all cells (notebook deadline)", sum(cells), notebook_limit),
                 (f"{lesson}: whole grade run, starts included (deadline)", run, notebook_limit)]
    rows += [(f"reading a cell's {limits.output_limit} bytes of messages, CPU (iopub wait)", read, limits.iopub_timeout),
             ("lesson 4's feedback, generate_feedback (render_timeout)", page, InertHTMLExporter().render_timeout)]
    for what, seconds, limit in rows:
        print(f"{what:60s} {seconds:8.2f} {limit:6g} {limit / max(seconds, 1e-3):6.0f}x")


if __name__ == "__main__":
    main()
