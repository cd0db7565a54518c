"""How `autograd-course grade`'s memory grows with its workers, by role, to plan a course machine.

    .venv/bin/python benchmarks/grading_memory.py [--size 8] [--workers 1 2 4]

Grades the same N submissions (grading.py's mix of all four lessons) once per worker count and
prints, at the peak of the tree's summed PSS (a page shared by forks counted once, see
process_memory.py), what each role held: the command (with its recorder), the workers and their
fork server, the kernels' warm parent, the kernels. More workers than cores measures memory only,
not speed.
"""
import argparse
import os
import shutil
import tempfile

from grading import make_course, ours  # beside this script
from process_memory import ROLES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2, 4])
    args = parser.parse_args()
    print(f"{'workers':>7} {'seconds':>8} {'PSS GiB':>8} {'RSS GiB':>8}  " +
          " ".join(f"{kind + ' GiB (n)':>18}" for kind in ROLES), flush=True)
    with tempfile.TemporaryDirectory(prefix="grading-memory-") as workdir:
        base = make_course(workdir, args.size)
        for workers in args.workers:
            course = shutil.copytree(base, os.path.join(workdir, f"w{workers}"))
            seconds, memory = ours(course, workers, sampled=True)
            print(f"{workers:>7} {seconds:>8.1f} {memory.peak_pss / 1024**3:>8.2f} {memory.peak_rss / 1024**3:>8.2f}  " +
                  " ".join(f"{f'{memory.at_peak.get(k, 0) / 1024**3:.2f} ({memory.most.get(k, 0)})':>18}"
                           for k in ROLES), flush=True)


if __name__ == "__main__":
    main()
