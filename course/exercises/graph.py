"""Lesson 1 exercises: requires_grad and the computational graph.

Every expected value comes from PyTorch itself: flags are read off tensors the check builds,
grad_fn names and node counts are recorded while the check builds its random graphs, and values
and gradients are computed on the check's own copy of the input.
"""
import contextlib

import torch
from torch import nn

from ..checks import random_inputs as rand
from ..checks.diagnose import diagnose_gradient, diagnose_tensor, diagnose_values
from ..exercise import Exercise
from ..visuals.graph_walk import walk_graph
from ..checks.mistakes import Mistake, require
from ..checks.technique import forbidden, inputs_kept, snapshot




# ---------------------------------------------------------------- make_leaf

def _make_leaf_cases(rng):
    """(description, data): lists and tensors of the kinds a learner meets first."""
    shape = rand.shape(rng)
    floats = rand.tensor(rng, shape, torch.float64, -3.0, 3.0).tolist()
    ints = torch.randint(-9, 10, (rand.integer(rng, 2, 6),), generator=rng)
    w = rand.tensor(rng, shape, torch.float32, requires_grad=True)
    return [
        ("a list of floats", floats),
        ("a list of ints", ints.tolist()),
        ("an int64 tensor", torch.randint(-9, 10, shape, generator=rng)),
        ("a float64 tensor", rand.tensor(rng, shape, torch.float64)),
        ("a float32 tensor computed from another one (it has a grad_fn)", w * 2),
    ]


def _make_leaf(answer, rng):
    for description, data in _make_leaf_cases(rng):
        given = data if isinstance(data, list) else snapshot(data)[0]
        got = answer(data)
        what = f"for {description}, your tensor"
        if isinstance(data, torch.Tensor):
            if isinstance(got, torch.Tensor) and \
                    got.untyped_storage().data_ptr() == data.untyped_storage().data_ptr():
                raise Mistake(f"{what} shares its memory with the tensor you were given: changing one "
                              "would change the other. Make a new tensor with .clone() (after .detach()).")
            inputs_kept([given], [data], ["data"])
        expected = torch.as_tensor(given, dtype=torch.float64).detach()
        if isinstance(got, torch.Tensor) and got.dtype != torch.float64:
            raise Mistake(f"{what} has dtype {got.dtype}: make it torch.float64, whatever the data's own "
                          "dtype (dtype=torch.float64 when you create it).")
        require(diagnose_tensor(expected, got, what))
        if not got.requires_grad:
            raise Mistake(f"{what} does not require grad: pass requires_grad=True or call "
                          ".requires_grad_() on the new tensor.")
        if not got.is_leaf:
            raise Mistake(f"{what} is not a leaf: its grad_fn is {type(got.grad_fn).__name__}, so its .grad "
                          "would stay None after backward(). An operation after requires_grad (such as "
                          ".double() or .to()) is recorded; convert the dtype first, then require grad.")
        require(diagnose_values(expected, got, what))


# ---------------------------------------------------------------- grad_fn_names

# (text with {} for the input, function of (t, c) with c a constant tensor of t's shape)
CHAIN_OPS = [
    ("exp({})", lambda t, c: torch.exp(t)),
    ("sin({})", lambda t, c: torch.sin(t)),
    ("tanh({})", lambda t, c: torch.tanh(t)),
    ("sigmoid({})", lambda t, c: torch.sigmoid(t)),
    ("{}**2", lambda t, c: t**2),
    ("({} + 1)", lambda t, c: t + 1),
    ("({} * c)", lambda t, c: t * c),
    ("({} - c)", lambda t, c: t - c),
]
# The constant comes first: this node's next_functions start with (None, 0).
CONSTANT_FIRST = [
    ("(c * {})", lambda t, c: c * t),
    ("(c - {})", lambda t, c: c - t),
]


def _random_chain(rng):
    """A leaf x, the output y, y written out, and the grad_fn names PyTorch gave each step."""
    x = rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng), requires_grad=True)
    c = rand.tensor(rng, x.shape, x.dtype)
    length = rand.integer(rng, 2, 6)
    ops = [CHAIN_OPS[rand.integer(rng, 0, len(CHAIN_OPS) - 1)] for _ in range(length - 1)]
    # Never right above x, so "stopped at the None" and "left out AccumulateGrad" look different.
    ops.insert(rand.integer(rng, 1, len(ops)), CONSTANT_FIRST[rand.integer(rng, 0, 1)])
    t, text, made = x, "x", []
    for template, op in ops:
        t, text = op(t, c), template.format(text)
        made.append(type(t.grad_fn).__name__)
    if rand.integer(rng, 0, 1):
        t, text = t.sum(), f"({text}).sum()"
        made.append(type(t.grad_fn).__name__)
    return x, t, text, made[::-1] + ["AccumulateGrad"]


def _short_name(name) -> str:
    # node.name() says "torch::autograd::AccumulateGrad" where the class is "AccumulateGrad"
    return name.rsplit("::", 1)[-1] if isinstance(name, str) else name


def _grad_fn_names(answer, rng):
    for _ in range(3):
        x, y, text, expected = _random_chain(rng)
        got = answer(y)
        where = f"for y = {text}"
        if not isinstance(got, (list, tuple)) or not all(isinstance(n, str) for n in got):
            raise Mistake(f"{where}, return a list of strings (one grad_fn name per node), "
                          f"got {type(got).__name__}.")
        got = [_short_name(n) for n in got]
        if got == expected:
            continue
        if got == expected[::-1]:
            raise Mistake(f"{where}, your list is reversed: start at y.grad_fn (the output) and end "
                          "at the leaf's AccumulateGrad.")
        if got == expected[:-1]:
            raise Mistake(f"{where}, your list stops before AccumulateGrad: the walk ends at the node "
                          "that writes into x.grad, and it belongs in the list too.")
        if len(got) < len(expected) and got == expected[:len(got)]:
            raise Mistake(f"{where}, your list stops after {got[-1] if got else 'nothing'}, but the graph "
                          "goes on: an input that does not require grad (the constant c) shows up in "
                          "next_functions as (None, 0). Skip those entries and follow the other one.")
        raise Mistake(f"{where}, the grad_fn names from the output down are {expected}, "
                      f"but your list is {got}.")


# ---------------------------------------------------------------- count_nodes

UNARY = [("sin", torch.sin), ("exp", torch.exp), ("tanh", torch.tanh)]
BINARY = [("*", torch.mul), ("+", torch.add), ("-", torch.sub)]


class _Program:
    """Builds a random graph and records, as it goes, the nodes PyTorch creates."""

    def __init__(self, rng):
        self.rng = rng
        shape = rand.shape(rng)
        x1 = rand.tensor(rng, shape, torch.float64, requires_grad=True)
        x2 = rand.tensor(rng, shape, torch.float64, requires_grad=True)
        c = rand.tensor(rng, shape, torch.float64)
        self.values = {"x1": x1, "x2": x2, "c": c}
        self.unused = ["x1", "x2", "c"]  # names no operation has consumed yet
        self.lines: list[str] = []
        self.nodes: dict[int, str] = {}  # id of each grad_fn made -> its class name
        self.leaves_used: set[str] = set()

    def pick(self, needs_grad: bool = False) -> str:
        names = [n for n, v in self.values.items() if v.requires_grad or not needs_grad]
        # Prefer recent results, so chains grow deep and get reused.
        return names[max(rand.integer(self.rng, 0, len(names) - 1), rand.integer(self.rng, 0, len(names) - 1))]

    def apply(self, text: str, fn, *operands: str) -> str:
        name = f"h{len(self.lines) + 1}"
        result = fn(*(self.values[o] for o in operands))
        for o in operands:
            if o in ("x1", "x2"):
                self.leaves_used.add(o)
            if o in self.unused:
                self.unused.remove(o)
        if result.grad_fn is not None:
            self.nodes[id(result.grad_fn)] = type(result.grad_fn).__name__
        self.values[name] = result
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
    """y built with shared subexpressions, the program as text, its node count and leaf count."""
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
    p.nodes[id(y.grad_fn)] = type(y.grad_fn).__name__
    p.lines.append(f"y = {p.unused[0]}.sum()")
    count = len(p.nodes) + len(p.leaves_used)
    return y, "; ".join(p.lines), count, len(p.leaves_used)


def _count_nodes(answer, rng):
    for _ in range(2):
        y, program, expected, leaves = _random_shared_graph(rng)
        got = answer(y)
        where = f"for the graph of {program}"
        if isinstance(got, bool) or not isinstance(got, int):
            raise Mistake(f"{where}, return the count as an int, got {type(got).__name__}.")
        if got == expected:
            continue
        if got > expected:
            raise Mistake(f"{where}, you counted {got} nodes but the graph has {expected}: a node reached "
                          "along two paths (a shared subexpression such as h in h * h) was counted once "
                          "per path. Remember the nodes already seen, by identity, and skip them.")
        if got == expected - leaves:
            raise Mistake(f"{where}, you counted {got} nodes, {leaves} short of {expected}: count the "
                          "AccumulateGrad nodes too, one per leaf that requires grad.")
        raise Mistake(f"{where}, you counted {got} nodes, fewer than the {expected} there are. Follow "
                      "every non-None entry of next_functions, not only the first, and tell nodes apart "
                      "by identity (the node objects, or id(node)), not by name: two different nodes can "
                      "have the same name (two MulBackward0, two AccumulateGrad).")


# ---------------------------------------------------------------- predict_flags

# expression -> (how the check builds it, why its flags are what they are)
FLAG_RULES = {
    "a * b": (lambda a, b: a * b,
              "a result requires grad as soon as ANY input requires grad, and it is a leaf exactly when "
              "it does not (then nothing was recorded and its grad_fn is None)."),
    "a.detach()": (lambda a, b: a.detach(),
                   "detach() returns a new leaf that never requires grad, whatever a's flag."),
    "a.double()": (lambda a, b: a.double(),
                   "a dtype conversion is an operation like any other: when a requires grad it is "
                   "recorded (ToCopyBackward0), so the result requires grad and is not a leaf."),
    "a + b.detach()": (lambda a, b: a + b.detach(),
                       "b.detach() never requires grad, so only a's flag decides."),
    "nn.Parameter(b)": (lambda a, b: nn.Parameter(b),
                        "nn.Parameter makes a leaf that requires grad by default, whatever b's flag."),
}
FACTORIES = ["tensor", "as_tensor", "ones", "zeros", "rand", "randn", "empty", "full", "arange",
             "linspace", "eye", "ones_like", "rand_like", "randn_like", "empty_like", "full_like"]


def _predictions_only():
    stack = contextlib.ExitStack()
    for name in FACTORIES:
        stack.enter_context(forbidden(torch, name, "predict the flags from the rules, without "
                                      f"building tensors (torch.{name} is switched off here)."))
    return stack


def _flags_of(got, key: str, where: str) -> tuple[bool, bool]:
    pair = got.get(key) if isinstance(got, dict) else None
    if not isinstance(pair, (tuple, list)) or len(pair) != 2 or not all(isinstance(v, bool) for v in pair):
        raise Mistake(f"{where}, got[{key!r}] should be a pair of bools (requires_grad, is_leaf), "
                      f"got {pair!r}.")
    return pair[0], pair[1]


def _predict_flags(answer, rng):
    cases = [(a, b) for a in (False, True) for b in (False, True)]
    order = torch.randperm(len(cases), generator=rng).tolist()
    for a_requires, b_requires in (cases[i] for i in order):
        with _predictions_only():
            got = answer(a_requires, b_requires)
        where = f"for a_requires={a_requires}, b_requires={b_requires}"
        if not isinstance(got, dict) or set(got) != set(FLAG_RULES):
            keys = sorted(got) if isinstance(got, dict) else type(got).__name__
            raise Mistake(f"{where}, return a dict with exactly the keys {list(FLAG_RULES)}, got {keys}.")
        shape = rand.shape(rng)
        a = rand.tensor(rng, shape, torch.float32, requires_grad=a_requires)
        b = rand.tensor(rng, shape, torch.float32, requires_grad=b_requires)
        for key, (build, why) in FLAG_RULES.items():
            real = build(a, b)
            expected = (real.requires_grad, real.is_leaf)
            predicted = _flags_of(got, key, where)
            if predicted != expected:
                raise Mistake(f"{where}, `{key}` has requires_grad={expected[0]}, is_leaf={expected[1]}, "
                              f"but you predicted requires_grad={predicted[0]}, is_leaf={predicted[1]}. "
                              f"Why: {why}")


# ---------------------------------------------------------------- build_f

def reference_f(x: torch.Tensor) -> torch.Tensor:
    """The function the lesson prints: f(x) = log(x^2) sin(x) + 1/x."""
    return torch.log(x**2) * torch.sin(x) + 1 / x


REQUIRED_OPS = [("Log", "log(x^2)"), ("Sin", "sin(x)")]


def _build_f(answer, rng):
    x = rand.away_from_zero(rng, rand.shape(rng), rand.float_dtype(rng))
    flat = x.view(-1)  # both signs, always: log(x) and log(x**2) differ only for x < 0
    flat[0], flat[1] = -flat[0].abs(), flat[1].abs()
    x.requires_grad_(True)
    before = snapshot(x)
    got = answer(x)
    inputs_kept(before, [x], ["x"])
    x0 = before[0]
    expected = reference_f(x0)
    require(diagnose_tensor(expected, got, "f(x)"))
    if got.grad_fn is None:
        raise Mistake("f(x) has no grad_fn: autograd recorded nothing. Compute with torch operations on x "
                      "itself (no .item(), .numpy(), math.*, .detach() or torch.no_grad()).")
    if x.grad is not None:
        raise Mistake("x.grad is set: your function called backward(). Return f(x) and let the caller "
                      "decide what to do with the graph.")
    require(diagnose_values(expected, got, "f(x)"))
    graph = walk_graph(got)
    leaves = [n.tensor for n in graph.nodes if n.kind == "leaf"]
    if not any(leaf is x for leaf in leaves):
        raise Mistake("the graph of f(x) does not end at the x you were given but at a copy of it, so "
                      "backward() would never fill x.grad. x already requires grad: use it directly.")
    labels = [n.label for n in graph.nodes]
    for op, term in REQUIRED_OPS:
        if not any(label.startswith(op) for label in labels):
            raise Mistake(f"the graph of f(x) has no {op}Backward node: the {term} term was not recorded "
                          "(computed from x.detach(), .data or a plain number?), so no gradient flows "
                          f"through it. Nodes found: {sorted(set(labels))}.")
    (grad,) = torch.autograd.grad(got.sum(), x)
    (expected_grad,) = torch.autograd.grad(expected.sum(), x0)
    require(diagnose_gradient(expected_grad, grad, "the gradient of f at x"))


make_leaf = Exercise("make_leaf", _make_leaf, [
    "Three things must hold for the result: dtype float64, requires_grad True, and no grad_fn (a leaf). "
    "The order of the steps decides the last one.",
    "Convert first, then require grad: torch.as_tensor(data, dtype=torch.float64), then "
    ".detach().clone() so it is a new tensor, then .requires_grad_(True).",
])
grad_fn_names = Exercise("grad_fn_names", _grad_fn_names, [
    "Start at node = y.grad_fn. Each node's next_functions is a tuple of (node, index) pairs, one per "
    "input; in a chain exactly one of them is not None.",
    "Loop while node is not None: append type(node).__name__, then set node to the first non-None "
    "entry of node.next_functions (or None when there is none left).",
])
count_nodes = Exercise("count_nodes", _count_nodes, [
    "Walk from y.grad_fn through next_functions like in the previous exercise, but follow every "
    "non-None entry. The same node can be reached along two paths.",
    "Keep a stack [y.grad_fn] and a set seen of id(node); pop a node, skip it if seen, else add it "
    "and push its non-None next_functions. Return len(seen).",
])
predict_flags = Exercise("predict_flags", _predict_flags, [
    "Two rules decide everything: a result requires grad if any input does, and a tensor is a leaf "
    "when it has no grad_fn. detach() and nn.Parameter make new leaves.",
    "\"a * b\": (a_requires or b_requires, not (a_requires or b_requires)); \"a.detach()\": (False, True); "
    "\"nn.Parameter(b)\": (True, True). Work out the other two the same way.",
])
build_f = Exercise("build_f", _build_f, [
    "Use torch functions on x itself (x already requires grad): torch.log, torch.sin, and / for 1/x.",
    "return torch.log(x**2) * torch.sin(x) + ... (the 1/x term): no copy of x, no .item(), no backward().",
])
