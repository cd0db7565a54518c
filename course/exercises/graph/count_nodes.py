"""`count_nodes(y)`: how many distinct backward nodes a graph with shared nodes and constants has.

The course's own graph walkers are closed while it is checked (``walk_errors.WALKS_THE_GRAPH``).
"""
import torch

from ...checks import random_inputs as rand
from ...checks.mistakes import Mistake
from ...checks.read_back import same_length
from ...checks.walk_errors import WALKS_THE_GRAPH, walk_errors_explained
from ...exercise import Exercise


UNARY = [("sin", torch.sin), ("exp", torch.exp), ("tanh", torch.tanh)]


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
    left, right = p.unary(h), p.unary(h)  # a diamond: h reached along two paths
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
    with walk_errors_explained("a constant has no backward node: skip the None entries."):
        # each graph twice in a row: a walk that keeps what it saw between calls counts less the second time
        counts = [(answer(y), answer(y)) for y, _ in inputs["graphs"]]
    return {"counts": [first for first, _ in counts], "again": [again for _, again in counts]}


def judge(seen, expected, inputs):
    sent = same_length(seen["counts"], expected["graphs"], "counts")
    again_sent = same_length(seen.get("again"), expected["graphs"], "counts")
    for (_, program), got, again, want in zip(inputs["graphs"], sent, again_sent, expected["graphs"]):
        where = f"for the graph of {program}"
        if isinstance(got, bool) or not isinstance(got, int):
            raise Mistake(f"{where}, return the count as an int, got {type(got).__name__}.", "not_an_int")
        if got == want["count"]:
            if again != got:
                raise Mistake(f"called twice on the same y, your function counted {got} nodes, then {again}: "
                              "it kept state between calls (a set of seen nodes, or a counter, outside the "
                              "function?). Make the set of seen nodes inside the function, so each call starts "
                              f"afresh ({where}).", "kept_state")
            continue
        if got == want["per_path"]:
            raise Mistake(f"you counted {got} nodes: a shared node was counted once per path. A node reached "
                          "along two paths (a result used twice, such as h in h * h) was counted again, with "
                          f"everything below it: remember the nodes already seen and skip them ({where}).",
                          "counted_per_path")
        if got in want["by_name"]:
            raise Mistake(f"you counted {got} nodes: you told nodes apart by name. Two different nodes can "
                          "have the same name (two MulBackward0, one AccumulateGrad per leaf): tell nodes "
                          f"apart by identity (the node objects, or id(node)), not by name ({where}).",
                          "deduped_by_name")
        if got == want["without_leaves"]:
            raise Mistake(f"you counted {got} nodes: the leaves' nodes are missing, count the AccumulateGrad "
                          f"nodes too, one per leaf that requires grad ({where}).", "skipped_accumulate_grad")
        if got == want["count"] + 1:
            raise Mistake(f"you counted {got} nodes, one more than the graph has. Was None counted as a node? A "
                          "constant's entry in next_functions is (None, 0), not a node: skip it, and count each "
                          f"node once, told apart by identity ({where}).", "counted_none")
        more = "more" if got > want["count"] else "fewer"
        raise Mistake(f"you counted {got} nodes, {more} than the graph has. Follow every non-None entry of "
                      "next_functions, count each node once however many paths reach it, and tell nodes "
                      f"apart by identity, not by name ({where}).", "wrong_count")


HINTS = [
    "Walk from y.grad_fn as in grad_fn_names, but an operation can now have several inputs that require "
    "grad: follow every non-None entry of next_functions, not just one. Keep a list of the nodes still to "
    "visit (a stack: append what you find, pop the next one to look at), or let a function call itself "
    "on each input's node.",
    "The same node can be reached along several paths (h in h * h, or a diamond). Remember the nodes "
    "you have already counted and skip them when you reach them again.",
    "Remember nodes by identity, not by name: two different nodes can both be MulBackward0, and each "
    "leaf has its own AccumulateGrad.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS, closes=WALKS_THE_GRAPH)
