"""The whole corpus on many fresh seeds: which wrong answer passes on some seed, which correct answer
fails on one, and where the grader's message is not the one the answer expects.

    .venv/bin/python benchmarks/corpus_sweep.py [--seeds 50] [--jobs 2] [--only 02_backward] [--replay 123 456]

Each answer of tests/wrong_submissions/ and tests/correct_answers/ is judged on ``--seeds`` fresh
seeds of its own, as the grader judges (``tests/sweep.py``), then self-checked on the stored
seeds. Findings are printed per lesson with the seed that shows each; ``--replay`` judges every
answer on the seeds given instead. The last lines say how many answers and seeds were judged, and how
long it took.
"""
import argparse
import os
import sys
import time
from collections import defaultdict
from multiprocessing import get_context

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path[:0] = [ROOT, os.path.join(ROOT, "tests")]

import warnings  # noqa: E402

from sweep import corpus, sweep  # noqa: E402
from course.checks.random_inputs import fresh_seed  # noqa: E402


def _swept(job):
    answer, seeds = job
    warnings.simplefilter("ignore")
    return answer, sweep(answer, seeds)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=50, help="fresh seeds per answer")
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--only", nargs="*", default=[], help="lessons (e.g. 02_backward)")
    parser.add_argument("--replay", nargs="*", type=int, default=[], help="judge on these seeds instead")
    args = parser.parse_args()
    answers = [a for a in corpus() if not args.only or a.assignment in args.only]
    jobs = [(answer, args.replay or [fresh_seed() for _ in range(args.seeds)]) for answer in answers]
    started = time.perf_counter()
    with get_context("fork").Pool(args.jobs) as pool:
        results = pool.map(_swept, jobs, chunksize=4)
    by_lesson = defaultdict(list)
    for answer, found in results:
        by_lesson[answer.assignment] += found
    for lesson in sorted({a.assignment for a in answers}):
        judged = [a for a in answers if a.assignment == lesson]
        print(f"{lesson}: {sum(a.wrong for a in judged)} wrong and {sum(not a.wrong for a in judged)} correct "
              f"answers, {len(by_lesson[lesson])} findings")
        grouped = defaultdict(list)
        for finding in by_lesson[lesson]:
            grouped[(finding.answer.name, finding.what)].append(finding)
        for (name, what), found in sorted(grouped.items()):
            wheres = [f.where for f in found]
            seeds = [w for w in wheres if w.startswith("seed ")]
            said = f"on {len(seeds)} of {len(jobs[0][1])} seeds (e.g. {', '.join(seeds[:3])})" if seeds else ""
            said += (" and " if seeds and "self-check" in wheres else "") + ("in the self-check" if "self-check" in wheres else "")
            message = next((f.message.splitlines()[0][:200] for f in found if f.message), "")
            print(f"  {name}: {what} {said}{': ' + message if message else ''}")
    seeds = len(jobs[0][1]) if jobs else 0
    print(f"{len(answers)} answers x {seeds} seeds (and each answer's self-check) in "
          f"{time.perf_counter() - started:.0f} s on {args.jobs} processes")


if __name__ == "__main__":
    main()
