"""Whether a change moved grading's speed: `autograd-course grade` of two or more revisions, side by side.

    .venv/bin/python benchmarks/revisions.py REV REV [REV ...] [--size 32] [--rounds 3] [--workers 2]

Each revision is checked out in a worktree of its own with its own `make setup` (kept under
``--cache`` for the next run). The first revision's `benchmarks/grading.py` builds one scratch course
of ``--size`` submissions (solutions, blanks and wrong answers of all four lessons, in turn); every
revision grades a fresh copy of that same course with its own `nbgrader_config.py`, in rounds whose
order turns each round (A B C, B C A, C A B), so the machine's load falls on all alike. It prints each
round's seconds, then each revision's median, its range and its ratio to the first revision's median,
its peak PSS, whether its scores agree with the first's, and whether every graded notebook shows, cell
by cell, the kinds of output the first's shows (a revision that drew other outputs is not compared
like with like, and says so). It exits 1 when scores or outputs differ.

It compares revisions that grade the same lessons: when the first revision's `source/` or
corpus differ from another's, the submissions would not be that revision's, and it refuses.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from grading import default_workers, notebooks_differing, timed  # noqa: E402  (beside this script)

SAME_LESSONS = ("source", "release", "tests/wrong_submissions")


def checkout(rev: str, cache: str) -> tuple[str, str]:
    """The revision's full hash and a worktree of it with its own virtual environment."""
    sha = subprocess.check_output(["git", "rev-parse", "--verify", f"{rev}^{{commit}}"], cwd=ROOT, text=True).strip()
    tree = os.path.join(cache, sha[:7])
    if not os.path.isdir(tree):
        subprocess.run(["git", "worktree", "add", "--detach", tree, sha], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    if not os.path.exists(os.path.join(tree, ".venv", ".installed")):
        print(f"setting up {rev} in {tree} (make setup)", flush=True)
        subprocess.run(["make", "setup"], cwd=tree, check=True, stdout=subprocess.DEVNULL)
    return sha, tree


def refuse_other_lessons(shas: list[str]) -> None:
    for sha in shas[1:]:
        changed = subprocess.run(["git", "diff", "--quiet", shas[0], sha, "--", *SAME_LESSONS], cwd=ROOT)
        if changed.returncode:
            sys.exit(f"{sha[:12]} grades other lessons or answers than {shas[0][:12]} ({', '.join(SAME_LESSONS)} "
                     "differ): the same submissions cannot be compared")


def build_course(tree: str, workdir: str, size: int) -> str:
    """The scratch course, built by the revision's own benchmark (its release, its corpus)."""
    script = "import sys; from grading import make_course; print(make_course(sys.argv[1], int(sys.argv[2])))"
    out = subprocess.check_output([os.path.join(tree, ".venv", "bin", "python"), "-c", script, workdir, str(size)],
                                  cwd=os.path.join(tree, "benchmarks"), text=True)
    return out.strip().splitlines()[-1]


def grade(tree: str, base: str, copy: str, workers: int) -> tuple[float, float]:
    """Seconds and peak PSS (GiB) of the revision's `grade` on a fresh copy of the course."""
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(base, copy)
    shutil.copy(os.path.join(tree, "nbgrader_config.py"), copy)
    command = [os.path.join(tree, ".venv", "bin", "autograd-course"), "--root", copy, "grade", "--workers", str(workers)]
    seconds, memory = timed(command, copy)
    return seconds, memory.peak_pss / 1024**3


def totals(tree: str, course: str) -> dict:
    """Each submission's autograded score, read with the revision's own nbgrader from its gradebook file
    (nbgrader's API, which every revision has: the course's own readers moved between revisions)."""
    script = ("import json, os, sys; from nbgrader.api import Gradebook\n"
              "with Gradebook('sqlite:///' + os.path.join(sys.argv[1], 'gradebook.db')) as g:\n"
              "    print(json.dumps(sorted([s.student.id, s.assignment.name, s.code_score]"
              " for a in g.assignments for s in a.submissions)))")
    out = subprocess.check_output([os.path.join(tree, ".venv", "bin", "python"), "-c", script, course], cwd=tree,
                                  text=True)
    return {(student, lesson): score for student, lesson, score in json.loads(out.strip().splitlines()[-1])}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("revs", nargs="+")
    parser.add_argument("--size", type=int, default=32)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workers", type=int, default=default_workers(), help="as grade's own default")
    parser.add_argument("--cache", default=os.path.join(tempfile.gettempdir(), "autograd-revisions"))
    args = parser.parse_args()
    if len(args.revs) < 2:
        parser.error("give at least two revisions")
    trees = [checkout(rev, args.cache) for rev in args.revs]
    refuse_other_lessons([sha for sha, _ in trees])
    with tempfile.TemporaryDirectory(prefix="revisions-bench-") as workdir:
        base = build_course(trees[0][1], os.path.join(workdir, "base"), args.size)
        seconds = {rev: [] for rev in args.revs}
        pss = {rev: 0.0 for rev in args.revs}
        print(f"N = {args.size}, {args.workers} workers, {args.rounds} rounds; the order turns each round", flush=True)
        for r in range(args.rounds):
            order = args.revs[r % len(args.revs):] + args.revs[:r % len(args.revs)]
            for rev in order:
                tree = trees[args.revs.index(rev)][1]
                took, peak = grade(tree, base, os.path.join(workdir, rev), args.workers)
                seconds[rev].append(took)
                pss[rev] = max(pss[rev], peak)
            print(f"round {r + 1}: " + "  ".join(f"{rev} {seconds[rev][-1]:.1f} s" for rev in order), flush=True)
        held = report(args.revs, [tree for _, tree in trees], seconds, pss, workdir)
    sys.exit(0 if held else 1)


def report(revs: list[str], trees: list[str], seconds: dict, pss: dict, workdir: str) -> bool:
    """The table, from the last round's graded copies; whether scores and outputs held."""
    first = os.path.join(workdir, revs[0])
    first_scores = totals(trees[0], first)
    base_median, held = statistics.median(seconds[revs[0]]), True
    print(f"{'revision':>12} {'median s':>9} {'range s':>13} {'vs first':>9} {'peak PSS GiB':>13} scores outputs")
    for rev, tree in zip(revs, trees):
        mine = os.path.join(workdir, rev)
        same = "agree" if totals(tree, mine) == first_scores else "DIFFER"
        lost = notebooks_differing(first, mine)
        for where, differ in list(lost.items())[:10]:
            print(f"     outputs: {rev}: {where}: {'; '.join(differ)}", file=sys.stderr)
        median = statistics.median(seconds[rev])
        print(f"{rev:>12} {median:>9.1f} {min(seconds[rev]):>6.1f}-{max(seconds[rev]):<6.1f} "
              f"{(median / base_median - 1) * 100:>+8.1f}% {pss[rev]:>13.2f} {same:>6} "
              f"{'same' if not lost else f'DIFFER({len(lost)})'}")
        held = held and same == "agree" and not lost
    return held


if __name__ == "__main__":
    main()
