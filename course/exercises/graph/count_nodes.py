"""`count_nodes(y)`: how many distinct backward nodes a graph with shared nodes and constants has.

The course's own graph walkers are closed while it is checked (``walk_errors.WALKS_THE_GRAPH``).
"""
import torch

from ...checks import random_inputs as rand
from ...checks.mistakes import Mistake
from ...checks.read_back import same_length
from ...checks.walk_errors import WALKS_THE_GRAPH, walk_errors_explained
from ...exercise import Exercise
from .grad_fn_names import kept_none_explained


# Bounded functions only: a chain of exp would reach inf (the count would not change, but the values would be
# no values at all).
UNARY = [("sin", torch.sin), ("sigmoid", torch.sigmoid), ("tanh", torch.tanh)]


BINARY = [("*", torch.mul), ("+", torch.add), ("-", torch.sub)]


class _Program:
    """Builds a random graph from two leaves and a constant, writing each step as a line of code."""

    def __init__(self, rng):
        self.rng = rng
        shape = rand.shape(rng)
        x1 = rand.tensor(rng, shape, torch.float64, requires_grad=True)
        x2 = rand.tensor(rng, shape, torch.float64, requires_grad=True)
        c = rand.tensor(rng, shape, torch.float64)
        self.values = {"x1": x1, "x2": x2, "c": c}
        self.unused = ["x1", "x2", "c"]  # names no operation has consumed yet
        self.lines: list[str] = []

    def pick(self, needs_grad: bool = False) -> str:
        names = [n for n, v in self.values.items() if v.requires_grad or not needs_grad]
        # Prefer recent results, so chains grow deep and get reused.
        return names[max(rand.integer(self.rng, 0, len(names) - 1), rand.integer(self.rng, 0, len(names) - 1))]

    def apply(self, text: str, fn, *operands: str) -> str:
        name = f"h{len(self.lines) + 1}"
        self.values[name] = fn(*(self.values[o] for o in operands))
        for o in operands:
            if o in self.unused:
                self.unused.remove(o)
        self.unused.append(name)
        self.lines.append(f"{name} = {text}")
        return name

    def unary(self, operand: str) -> str:
        label, fn = UNARY[rand.integer(self.rng, 0, len(UNARY) - 1)]
        return self.apply(f"{label}({operand})", fn, operand)

    def binary(self, a: str, b: str) -> str:
        label, fn = BINARY[rand.integer(self.rng, 0, len(BINARY) - 1)]
        return self.apply(f"{a} {label} {b}", fn, a, b)


def _random_shared_graph(rng):
    """y built with shared subexpressions (h * h, a diamond), and the program as text."""
    p = _Program(rng)
    p.binary("x1", "x2")  # both leaves take part: two AccumulateGrad nodes with the same name
    for _ in range(rand.integer(rng, 1, 3)):
        if rand.integer(rng, 0, 1):
            p.unary(p.pick())
        else:
            p.binary(p.pick(), p.pick())
    h = p.unary(p.pick(needs_grad=True))
    p.apply(f"{h} * {h}", torch.mul, h, h)  # one node, used twice by the same operation
    # a diamond: h reached along two paths, through two nodes of one name (told apart only by identity)
    label, fn = UNARY[rand.integer(rng, 0, len(UNARY) - 1)]
    left, right = p.apply(f"{label}({h})", fn, h), p.apply(f"{label}({h})", fn, h)
    p.binary(left, right)
    while len(p.unused) > 1:  # fold everything into one output, so every node is reachable
        a, b = p.unused[0], p.unused[1]
        p.apply(f"{a} + {b}", torch.add, a, b)
    y = p.values[p.unused[0]].sum()
    p.lines.append(f"y = {p.unused[0]}.sum()")
    return y, "; ".join(p.lines)


def inputs(rng):
    return {"graphs": [_random_shared_graph(rng) for _ in range(2)]}


def call(answer, inputs):
    with walk_errors_explained("a constant has no backward node: skip the None entries."), kept_none_explained():
        # each graph twice in a row: a walk that keeps what it saw between calls counts less the second time
        counts = [(answer(y), answer(y)) for y, _ in inputs["graphs"]]
    return {"counts": [first for first, _ in counts], "again": [again for _, again in counts]}


IDENTITY = "tell nodes apart by identity (the node objects, or id(node)), not by name"


# The mistakes a count can show, each with the counts it gives for a graph (the reference's walks) and
# what to say. A mistake is named only when it gives every graph of the trial the count the answer gave.
MISTAKES = [
    ("counted_per_path", lambda w: {w["per_path"]},
     "a shared node was counted once per path. A node reached along two paths (a result used twice, such as h "
     "in h * h) was counted again, with everything below it: remember the nodes already seen and skip them"),
    ("counted_arrows", lambda w: {w["arrows"]},
     "you counted the arrows, the (node, index) pairs of next_functions, not the nodes: a node used by two "
     "operations is the end of two arrows. Count each node once, however many pairs lead to it"),
    ("names_plus_leaves", lambda w: {w["by_name"]["op_names_plus_leaves"]},
     "your count has every AccumulateGrad, but the other nodes were told apart by name: two different nodes can "
     f"have the same name (the two sides of a diamond, two MulBackward0). {IDENTITY[0].upper()}{IDENTITY[1:]}"),
    ("deduped_by_name", lambda w: {w["by_name"][k] for k in ("distinct_names", "name_walk_stack", "name_walk_queue")},
     "you told nodes apart by name. Two different nodes can have the same name (two MulBackward0, one "
     f"AccumulateGrad per leaf that requires grad): {IDENTITY}"),
    ("skipped_accumulate_grad", lambda w: {w["without_leaves"]},
     "the leaves' nodes are missing: count the AccumulateGrad nodes too, one per leaf that requires grad"),
    ("skipped_output", lambda w: {w["count"] - 1},
     "one fewer than the graph has: y.grad_fn, the node that made y, is a node too. Start the walk from it, "
     "not from its next_functions"),
    ("counted_none", lambda w: {w["count"] + 1},
     "one more than the graph has. Was None counted as a node? A constant's entry in next_functions is "
     f"(None, 0), not a node: skip it, and count each node once ({IDENTITY})"),
]


def judge(seen, expected, inputs):
    sent = same_length(seen["counts"], expected["graphs"], "counts")
    again_sent = same_length(seen.get("again"), expected["graphs"], "counts")
    graphs = list(zip((program for _, program in inputs["graphs"]), sent, again_sent, expected["graphs"]))
    for program, got, again, want in graphs:
        if isinstance(got, bool) or not isinstance(got, int):
            raise Mistake(f"for the graph of {program}, return the count as an int, got {type(got).__name__}.",
                          "not_an_int")
    for program, got, again, want in graphs:
        if again != got:
            raise Mistake(f"called twice on the same y, your function counted {got} nodes, then {again}: "
                          "it kept state between calls (a set of seen nodes or a counter kept outside the "
                          "function, or as a default argument, which is made once?). Make the set of seen nodes inside the function, so each call starts "
                          f"afresh (for the graph of {program}).", "kept_state")
    wrong = [(program, got, want) for program, got, _, want in graphs if got != want["count"]]
    if not wrong:
        return
    program, got, want = wrong[0]
    fits = [(kind, why) for kind, counts, why in MISTAKES if all(g in counts(w) for _, g, _, w in graphs)]
    if fits:
        (kind, why), others = fits[0], fits[1:]
        also = f" (Your counts fit another mistake as well: {others[0][1][:1].lower()}{others[0][1][1:]}.)" if others else ""
        raise Mistake(f"you counted {got} nodes for the graph of {program}: {why}.{also}", kind)
    more = "more" if got > want["count"] else "fewer"
    raise Mistake(f"you counted {got} nodes, {more} than the graph has. Follow every non-None entry of "
                  f"next_functions, count each node once however many paths reach it, and {IDENTITY} "
                  f"(for the graph of {program}).", "wrong_count")


HINTS = [
    "Walk from y.grad_fn as in grad_fn_names, but an operation can now have several inputs that require "
    "grad: follow every non-None entry of next_functions, not just one. Keep a list of the nodes still to "
    "visit (a stack: append what you find, pop the next one to look at), or let a function call itself "
    "on each input's node.",
    "The same node can be reached along several paths (h in h * h, or a diamond). Remember the nodes "
    "you have already counted and skip them when you reach them again.",
    "Remember nodes by identity, not by name: two different nodes can both be MulBackward0, and each "
    "leaf that requires grad has its own AccumulateGrad.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS, closes=WALKS_THE_GRAPH)
