"""Which seeds the self-check stores expected values for: a covering set, chosen at build time.

The grader draws fresh seeds; the self-check can judge only seeds whose expected values were stored
(the references stay with the grader). So the build draws the inputs of the first ``SCANNED`` seeds,
records the kinds each one draws (``course.checks.input_kinds.features``), and keeps the demo seed
plus, one at a time, the seed that adds the most kinds not yet covered (the smallest such seed on a
tie), until every kind seen is covered; then ``EXTRA`` seeds from beyond the scan, for combinations of
kinds no rule names. A kind the inputs draw in one seed in 40 is missed by the scan with a chance of 3 in a
million, so the grader's fresh seeds draw nothing the stored seeds do not cover
(``tests/test_self_check_coverage.py`` draws fresh seeds to prove it). Same sources, same seeds.
"""
import random

from course.checks.input_kinds import features
from course.checks.random_inputs import DEMO_SEED
from course.exercise import Exercise

SCANNED = 500  # the rarest kind any exercise draws shows up in about one seed in 40
EXTRA = 2


def drawn_features(exercise: Exercise, seeds) -> dict[int, frozenset]:
    return {seed: features(exercise.inputs(seed), exercise.edges) for seed in seeds}


def covering_seeds(exercise: Exercise) -> list[int]:
    """The demo seed first, then the covering seeds in the order chosen, then the extra ones."""
    drawn = drawn_features(exercise, range(SCANNED))
    everything = frozenset().union(*drawn.values())
    chosen, covered = [DEMO_SEED], set(drawn[DEMO_SEED])
    while covered != everything:
        best = max(drawn, key=lambda seed: (len(drawn[seed] - covered), -seed))
        chosen.append(best)
        covered |= drawn[best]
    rng = random.Random(f"{exercise.lesson}/{exercise.name}")  # a string seeds the same way everywhere
    return chosen + [rng.randrange(SCANNED, 2**31) for _ in range(EXTRA)]
