"""Every corpus answer on fresh seeds of its own, as the grader judges: every wrong answer fails on
each seed with the message it names, every correct answer passes on each, and the self-check says the
same (``tests/sweep.py``).

A few seeds per answer keep this within CI's time; the seeds are printed, so a failure replays with
``benchmarks/corpus_sweep.py --replay SEED``, which also sweeps the whole corpus on many seeds.
"""
import pytest

from sweep import corpus, sweep
from course.checks.random_inputs import fresh_seed

SEEDS = 2
ANSWERS = corpus()


@pytest.mark.parametrize("answer", ANSWERS, ids=[f"{a.assignment}/{a.name}" for a in ANSWERS])
def test_a_corpus_answer_gets_its_verdict_on_fresh_seeds(answer, capsys):
    seeds = [fresh_seed() for _ in range(SEEDS)]
    print(f"{answer.assignment}/{answer.name}: seeds {seeds}")
    found = sweep(answer, seeds)
    capsys.readouterr()
    assert not found, "\n".join(finding.line() for finding in found) + f"\n(seeds {seeds})"
