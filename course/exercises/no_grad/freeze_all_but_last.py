"""`freeze_all_but_last(model)`: freeze every parameter but the last layer with parameters, in a model
of any tail: freeze_all_but_output's check, on models whose last layers may have none.
"""
from ...exercise import Exercise
from .freeze_all_but_output import call, judge_freeze, models  # the core's check, on other models


# Activations after the last Linear: none, one (after a Linear without bias: a weight alone), two.
# "model[-1] or else model[-2]" fails the last; "the last Linear's weight and bias" the middle one.
TAILS = (0, 1, 2)


def inputs(rng):
    """A model of each tail, and one whose only Linear is the layer to keep: nothing is frozen there."""
    return models(rng, TAILS, one_linear=True)


def judge(seen, expected, inputs):
    judge_freeze(seen, expected, inputs, name="freeze_all_but_last")


HINTS = [
    "As in freeze_all_but_output, except that the layer to keep is not always model[-1].",
    "The last layer *with parameters* is not always model[-1], nor model[-2]: an activation has none, "
    "and a model may end with several. How can you ask a layer whether it has parameters?",
    "A last Linear may have no bias: work with the layer, not with its weight and bias by name.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
