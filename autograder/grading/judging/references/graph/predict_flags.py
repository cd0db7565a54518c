"""predict_flags: the flags of each expression, built and read with real tensors, sent only as seals."""
import torch
from torch import nn

from course.checks.observation import Sealed
from course.exercises.graph.predict_flags import EXPRESSIONS, flag_table, without


BUILD = {
    "a * b": lambda a, b: a * b,
    "a.detach()": lambda a, b: a.detach(),
    "a.double()": lambda a, b: a.double(),
    "a + b.detach()": lambda a, b: a + b.detach(),
    "nn.Parameter(b)": lambda a, b: nn.Parameter(b),
}


def _flags(a_requires: bool, b_requires: bool) -> dict:
    a = torch.ones(3, requires_grad=a_requires)
    b = torch.ones(3, requires_grad=b_requires)
    return {key: [bool(t.requires_grad), bool(t.is_leaf)] for key, t in ((k, build(a, b)) for k, build in BUILD.items())}


def expected(inputs):
    """The whole table sealed at once, and with each expression (of all cases, or of one) left out."""
    cases = inputs["cases"]
    table = flag_table(cases, [_flags(a, b) for a, b in cases])
    return {"table": Sealed.of(table),
            "one_expression": {key: Sealed.of(without(table, key)) for key in EXPRESSIONS},
            "one_pair": {key: [Sealed.of(without(table, key, i)) for i in range(len(cases))] for key in EXPRESSIONS}}
