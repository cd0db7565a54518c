"""How much faster `autograd-course grade` is than plain sequential `nbgrader autograde`.

    .venv/bin/python benchmarks/grading.py [--sizes 8 32 128] [--budget 600] [--workers 3] [--cold]
                                           [--library-patches-off]

For each size N it builds N submissions over all four lessons (solutions, blanks and wrong answers
from tests/wrong_submissions/, in turn), grades them in copies of one scratch course, side by
side in this run: once with nbgrader's own `nbgrader autograde` (its plain Execute: a fresh kernel
per notebook, one after another) and with `autograd-course grade` (three times, below), checks that both give the
same total per submission and that every graded notebook keeps, cell by cell, the kinds of output
nbgrader's keeps (figures as images, widgets as views: ``parity``), and prints seconds, the ratio, seconds per notebook, the floor per
notebook (the solution's cells and their outputs in an already-warm interpreter: no kernel, no imports;
the fastest of three runs of each lesson) and the
peak memory of each process tree (summed RSS, as earlier runs printed it, and PSS, which counts a page
shared by forks once; see process_memory.py), with ours' CPU time by role (command, workers, zygote,
kernels), which says where the time goes.

This machine's speed drifts by a third within minutes (other tenants), and a batch of ours is short
against nbgrader's lessons, so ours is graded three times, each on a fresh copy of the course, between
nbgrader's lessons: before the first, halfway, after the last. The table gives the median of the
three, and the line below it all three; nbgrader's seconds are the sum of its lessons'. Ours is timed
without the memory sampler, then graded once more with it, for the memory and CPU figures: the sampler
reads every process's memory five times a second, which costs several seconds of CPU over a batch
that keeps every core busy, and so slowed the run it measured. Plain nbgrader keeps one core busy
and is timed with the sampler, which runs on a core it leaves free. It exits 1 when scores or parity break. With ``--cold`` (warm kernels off: a fresh Python per
kernel) and ``--library-patches-off`` (grading/library_patches/ off: the libraries as shipped) it also
grades the course that way and as configured, in turn, three rounds each, and prints both medians. A baseline that would not fit in the time budget is skipped and
says so; nothing is extrapolated.
"""
import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout

import nbformat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from autograder.authoring.release import generate_release  # noqa: E402
from autograder import gradebook_scores  # noqa: E402
from autograder.authoring.output_parity import differences  # noqa: E402
from autograder.authoring.wrong_answers import build_submission, load_corpus, rounds, solution_cells  # noqa: E402
from autograder.course_dir import assignments  # noqa: E402
from autograder.grading.batch.settings import default_workers  # noqa: E402
from course.visuals.drawing import GRADING, KERNEL_VARIABLE  # noqa: E402
from process_memory import ROLES, PeakMemory  # noqa: E402  (beside this script)

BIN = os.path.dirname(sys.executable)
INLINE = "module://matplotlib_inline.backend_inline"
FLOOR_RUNS = 3  # timed runs of each lesson's cells after a warm-up; the floor takes the fastest
PLAIN_EXECUTE = '''
c.Autograde.autograde_preprocessors = ["nbgrader.preprocessors.Execute"] + c.Autograde.autograde_preprocessors[1:]
'''


def make_course(workdir: str, size: int) -> str:
    """A scratch course with all lessons released and ``size`` submitted notebooks."""
    course = os.path.join(workdir, "course")
    os.makedirs(course)
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), course)
    lessons = assignments(ROOT)
    for lesson in lessons:
        shutil.copytree(os.path.join(ROOT, "source", lesson), os.path.join(course, "source", lesson))
    generate_release(course, lessons)
    corpus = load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))
    kinds = {}
    for lesson in lessons:
        name = f"{lesson}.ipynb"
        release = nbformat.read(os.path.join(course, "release", lesson, name), as_version=4)
        solutions = solution_cells(nbformat.read(os.path.join(course, "source", lesson, name), as_version=4))
        wrong = rounds([a for a in corpus if a.assignment == lesson])
        kinds[lesson] = [build_submission(release, solutions), release] + \
            [build_submission(release, {**solutions, **{c: a.code for c, a in r.items()}}) for r in wrong]
    for i in range(size):
        lesson = lessons[i % len(lessons)]
        notebook = kinds[lesson][(i // len(lessons)) % len(kinds[lesson])]
        folder = os.path.join(course, "submitted", f"s{i:03d}", lesson)
        os.makedirs(folder)
        nbformat.write(notebook, os.path.join(folder, f"{lesson}.ipynb"))
    return course


def timed(command: list[str], cwd: str, sampled: bool = True) -> tuple[float, PeakMemory | None]:
    """Run a command as from an instructor's shell (this process's Agg backend not passed on: plain
    nbgrader's kernels would inherit it and draw no figure); its memory sampled, unless not ``sampled``."""
    shell = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=shell)
    memory = PeakMemory(process.pid) if sampled else None
    if process.wait():
        raise RuntimeError(f"{' '.join(command)} failed in {cwd}")
    if memory:
        memory.stop()
    return time.monotonic() - started, memory


def nbgrader_sequential(course: str, between=lambda lessons_done: None) -> tuple[float, float]:
    """nbgrader's seconds (its lessons' summed) and peak GiB; ``between(k)`` runs after its k-th lesson, untimed."""
    with open(os.path.join(course, "nbgrader_config.py"), "a") as config:
        config.write(PLAIN_EXECUTE)
    seconds, peak = 0.0, 0.0
    for done, lesson in enumerate(assignments(course), start=1):
        lesson_seconds, memory = timed([os.path.join(BIN, "nbgrader"), "autograde", lesson, "--create"], course)
        seconds, peak = seconds + lesson_seconds, max(peak, memory.peak_rss / 1024**3)
        between(done)
    return seconds, peak


def ours(course: str, workers: int, sampled: bool) -> tuple[float, PeakMemory | None]:
    return timed([os.path.join(BIN, "autograd-course"), "--root", course, "grade", "--workers", str(workers)], course,
                 sampled)


def totals(course: str) -> dict:
    return {(row["student"], row["assignment"]): row["code_score"] for row in gradebook_scores.scores(course)}


def notebooks_differing(plain: str, mine: str) -> dict[str, list[str]]:
    """``student / lesson`` -> where its graded notebook in ``mine`` shows other kinds of output than in
    ``plain`` (only the notebooks that differ)."""
    found = {}
    for student in sorted(os.listdir(os.path.join(plain, "autograded"))):
        for lesson in sorted(os.listdir(os.path.join(plain, "autograded", student))):
            name = os.path.join("autograded", student, lesson, f"{lesson}.ipynb")
            differ = differences(nbformat.read(os.path.join(plain, name), as_version=4),
                                 nbformat.read(os.path.join(mine, name), as_version=4))
            if differ:
                found[f"{student} / {lesson}"] = differ
    return found


def parity(plain: str, mine: str) -> str:
    """``kept`` when every graded notebook of ``mine`` shows the kinds of output ``plain``'s shows."""
    lost = notebooks_differing(plain, mine)
    for where, differ in lost.items():
        for line in differ:  # where, so that a lost output can be looked into
            print(f"     parity: {where}: {line}", file=sys.stderr)
    return "kept" if not lost else f"LOST({len(lost)})"


def floor_per_notebook(displayed: bool = True, grading: bool = False) -> float:
    """Seconds to run a lesson's solution cells in a warm interpreter, averaged over the lessons.

    ``displayed``: as a notebook runs them, each cell's value and figures rendered (figures as PNG,
    by matplotlib's inline backend), which a graded notebook must hold; otherwise the cells alone,
    nothing displayed (a lower bound no notebook reaches). ``grading``: as a grading kernel runs them,
    course figures described for the grader to draw (course/visuals/picture.py); the table's floor is
    the lesson's own drawing.
    """
    if grading:
        os.environ[KERNEL_VARIABLE] = GRADING
    try:
        return _floor(displayed)
    finally:
        os.environ.pop(KERNEL_VARIABLE, None)


def _floor(displayed: bool) -> float:
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    if displayed:  # what a kernel's %matplotlib inline does: figures shown as PNG
        import matplotlib
        from matplotlib_inline.backend_inline import configure_inline_support
        matplotlib.use(INLINE)
        configure_inline_support(shell, INLINE)
    times = []
    for lesson in assignments(ROOT):
        cells = [c.source for c in nbformat.read(os.path.join(ROOT, "source", lesson, f"{lesson}.ipynb"),
                                                 as_version=4).cells if c.cell_type == "code"]
        runs = []
        for run in range(1 + FLOOR_RUNS):  # the first run warms imports and kernels
            started = time.monotonic()
            with redirect_stdout(io.StringIO()):
                for source in cells:
                    shell.run_cell(source, silent=not displayed)
            runs.append(time.monotonic() - started)
        times.append(min(runs[1:]))  # the fastest: on a shared machine, the others carry its noise
    return sum(times) / len(times)


SIDE_BY_SIDE_ROUNDS = 3


def side_by_side(base: str, workdir: str, args, label: str, setting: str) -> str:
    """Ours as configured and ours with ``setting``, in turn on fresh copies (the order turning each
    round, so the machine's drift falls on both alike), and whether their scores agree."""
    seconds, graded = {"as configured": [], label: []}, {}
    for round_ in range(SIDE_BY_SIDE_ROUNDS):
        variants = [("as configured", ""), (label, setting)]
        for name, extra in variants if round_ % 2 == 0 else variants[::-1]:
            copy = shutil.copytree(base, os.path.join(workdir, f"{label}-{name}-{round_}".replace(" ", "-")))
            with open(os.path.join(copy, "nbgrader_config.py"), "a") as config:
                config.write(f"\n{extra}\n")
            seconds[name].append(ours(copy, args.workers, sampled=False)[0])
            graded[name] = copy
    same = "agree" if totals(graded["as configured"]) == totals(graded[label]) else "DIFFER"
    on, off = statistics.median(seconds["as configured"]), statistics.median(seconds[label])
    return (f"     {label}: {off:.1f} s against {on:.1f} s as configured ({off / on - 1:+.1%}; medians of "
            f"{SIDE_BY_SIDE_ROUNDS}, in turn: {' '.join(f'{x:.1f}' for x in seconds[label])} against "
            f"{' '.join(f'{x:.1f}' for x in seconds['as configured'])}); scores {same}")


def one_size(size: int, args, floor: float, per_notebook_baseline) -> tuple[str, bool, float | None]:
    """Grade ``size`` submissions both ways: the table's line, whether scores and parity held, and
    nbgrader's seconds per notebook (None when its run was skipped)."""
    with tempfile.TemporaryDirectory(prefix="grading-bench-") as workdir:
        base = make_course(workdir, size)
        # before nbgrader's first lesson, halfway and after its last, each on a copy of the ungraded course
        copies = [shutil.copytree(base, os.path.join(workdir, f"ours{n}")) for n in range(3)]
        runs = []

        def ours_once() -> None:
            runs.append(ours(copies[len(runs)], args.workers, sampled=False)[0])
        ours_once()
        mine = copies[0]
        sampled_seconds, memory = ours(shutil.copytree(base, os.path.join(workdir, "sampled")), args.workers, True)
        ours_peak = memory.peak_rss / 1024**3
        for wanted, label, setting in ((args.cold, "cold kernels", "c.GradingKernels.warm_kernels = False"),
                                       (args.library_patches_off, "library patches off",
                                        "c.GradingKernels.library_patches = False")):
            if wanted:
                print(side_by_side(base, workdir, args, label, setting), flush=True)
        roles = " ".join(f"{kind} {memory.at_peak.get(kind, 0) / 1024**3:.2f} ({memory.most.get(kind, 0)})"
                         for kind in ROLES)
        cpu = " ".join(f"{kind} {seconds:.1f}" for kind, seconds in memory.cpu.items())
        memory_line = (f"     ours at the PSS peak, GiB (most processes): {roles}\n"
                       f"     ours' CPU, s ({sum(memory.cpu.values()) / sampled_seconds:.2f} cores over the sampled "
                       f"run's {sampled_seconds:.1f} s): {cpu}")
        if per_notebook_baseline is not None and per_notebook_baseline * size > args.budget:
            ours_seconds = runs[0]
            return (f"{size:>4} {'skipped':>11} {ours_seconds:>8.1f} {'-':>6} {'-':>14} {ours_seconds / size:>10.2f} "
                    f"{ours_seconds / size / floor:>9.2f}x {'-':>18} {ours_peak:>14.2f} "
                    f"{memory.peak_pss / 1024**3:>13.2f} (baseline would take about "
                    f"{per_notebook_baseline * size:.0f} s > budget)\n{memory_line}", True, per_notebook_baseline)
        lessons = len(assignments(base))
        plain_seconds, plain_peak = nbgrader_sequential(base, lambda done: ours_once() if done in (lessons // 2, lessons)
                                                        else None)
        ours_seconds = statistics.median(runs)
        same = "agree" if all(totals(base) == totals(copy) for copy in copies) else "DIFFER"
        kept = parity(base, mine)
        line = (f"{size:>4} {plain_seconds:>11.1f} {ours_seconds:>8.1f} {plain_seconds / ours_seconds:>5.1f}x "
                f"{plain_seconds / size:>14.2f} {ours_seconds / size:>10.2f} {ours_seconds / size / floor:>9.2f}x "
                f"{plain_peak:>18.2f} {ours_peak:>14.2f} {memory.peak_pss / 1024**3:>13.2f} {same:>6} {kept}")
        runs_line = (f"     ours' runs, s (before nbgrader's first lesson, halfway, after its last): "
                     f"{' '.join(f'{r:.1f}' for r in runs)}")
        return f"{line}\n{runs_line}\n{memory_line}", same == "agree" and kept == "kept", plain_seconds / size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[8, 32, 128])
    parser.add_argument("--budget", type=float, default=600, help="seconds the baseline of one size may take")
    parser.add_argument("--workers", type=int, default=default_workers(), help="as grade's own default")
    parser.add_argument("--cold", action="store_true", help="also grade with warm kernels switched off, side by side")
    parser.add_argument("--library-patches-off", action="store_true",
                        help="also grade with the library patches switched off (the libraries as shipped), side by side")
    args = parser.parse_args()
    os.environ.setdefault("MPLBACKEND", "Agg")
    bare = floor_per_notebook(displayed=False)
    floor = floor_per_notebook()
    cheaper = floor_per_notebook(grading=True)
    print(f"floor: {floor:.2f} s per notebook (solution cells and their outputs, warm interpreter, no kernel; "
          f"{bare:.2f} s for the cells with nothing displayed, {cheaper:.2f} s with figures described as a grading kernel describes them)")
    print(f"{'N':>4} {'nbgrader s':>11} {'ours s':>8} {'ratio':>6} {'nbgrader s/nb':>14} {'ours s/nb':>10} "
          f"{'ours/floor':>10} {'peak GiB nbgrader':>18} {'peak GiB ours':>14} {'ours PSS GiB':>13} scores parity",
          flush=True)
    baseline, held = None, True
    for size in args.sizes:
        line, ok, baseline = one_size(size, args, floor, baseline)
        print(line, flush=True)
        held = held and ok
    sys.exit(0 if held else 1)


if __name__ == "__main__":
    main()
