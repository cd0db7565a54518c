"""Where a solution notebook's kernel time goes: each lesson's cells timed one by one, by kind.

    .venv/bin/python benchmarks/kernel_time.py [--runs 2] [--grading] [--clock wall|cpu] [--root CHECKOUT]

Runs each lesson's solution cells (source/NN_x/NN_x.ipynb) in one warm interpreter with values and
figures displayed as a kernel displays them (matplotlib's inline backend, PNG), once to warm up and
then ``--runs`` times, keeping each cell's fastest run. A cell's kind comes from what the executed
notebook shows: "figure" (a PNG), "widget" (a widget view), "check" (a graded test cell, which the
grader replaces by its own request), "text" (any other output) and "quiet" (none). Prints seconds
and share per kind, per lesson, and the slowest cells. ``--grading`` runs them as a grading kernel does
(course/visuals/drawing.py: the kernel marked as the grader marks it; course figures are described,
and the grader draws them, picture.py); ``--clock cpu`` times this
process's CPU rather than the wall clock, which a shared machine's load inflates; ``--root`` times
another checkout's lessons and course (e.g. main's, to print a "before" beside this one).
"""
import argparse
import io
import os
import sys
import time
from collections import defaultdict
from contextlib import redirect_stdout

import nbformat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from autograder.course_dir import assignments  # noqa: E402
from course.visuals.drawing import GRADING, KERNEL_VARIABLE  # noqa: E402

INLINE = "module://matplotlib_inline.backend_inline"
KINDS = ("figure", "widget", "check", "text", "quiet")


def kind(cell) -> str:
    meta = cell.metadata.get("nbgrader", {})
    if meta.get("grade") and not meta.get("solution"):
        return "check"
    data = [o.get("data", {}) for o in cell.get("outputs", [])]
    if any("application/vnd.jupyter.widget-view+json" in d for d in data):
        return "widget"
    if any("image/png" in d for d in data):
        return "figure"
    return "text" if cell.get("outputs") else "quiet"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--grading", action="store_true", help="run as a grading kernel runs (figures described, not drawn)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--root", default=ROOT, help="the checkout whose lessons and course are timed")
    args = parser.parse_args()
    root = os.path.abspath(args.root)
    sys.path.insert(0, root)
    for name in [m for m in sys.modules if m == "course" or m.startswith("course.")]:
        del sys.modules[name]  # the course of --root, not this checkout's
    if args.grading:
        os.environ[KERNEL_VARIABLE] = GRADING
    clock = time.process_time if args.clock == "cpu" else time.monotonic
    os.environ.setdefault("MPLBACKEND", "Agg")
    from IPython.core.interactiveshell import InteractiveShell
    import matplotlib
    from matplotlib_inline.backend_inline import configure_inline_support
    shell = InteractiveShell.instance()
    matplotlib.use(INLINE)
    configure_inline_support(shell, INLINE)
    print(f"{root}: {'as a grading kernel runs' if args.grading else 'as a lesson draws'}, {args.clock} clock")
    print(f"{'lesson':>12} {'total s':>8} " + " ".join(f"{k + ' s (n)':>16}" for k in KINDS))
    slowest = []
    for lesson in assignments(root):
        cells = [c for c in nbformat.read(os.path.join(root, "source", lesson, f"{lesson}.ipynb"),
                                          as_version=4).cells if c.cell_type == "code"]
        best = [float("inf")] * len(cells)
        for _ in range(1 + args.runs):  # the first run warms imports and caches
            for i, cell in enumerate(cells):
                started = clock()
                with redirect_stdout(io.StringIO()):
                    shell.run_cell(cell.source)
                best[i] = min(best[i], clock() - started)
        by_kind, count = defaultdict(float), defaultdict(int)
        for cell, seconds in zip(cells, best):
            by_kind[kind(cell)] += seconds
            count[kind(cell)] += 1
            slowest.append((seconds, lesson, kind(cell), cell.source.strip().splitlines()[0][:60]))
        total = sum(best)
        print(f"{lesson:>12} {total:>8.2f} " + " ".join(
            f"{f'{by_kind[k]:.2f} {100 * by_kind[k] / total:.0f}% ({count[k]})':>16}" for k in KINDS))
    print("slowest cells:")
    for seconds, lesson, what, first in sorted(slowest, reverse=True)[:8]:
        print(f"  {seconds:6.3f} s  {lesson:12} {what:7} {first}")


if __name__ == "__main__":
    main()
