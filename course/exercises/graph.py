"""Lesson 1 exercises: requires_grad and the computational graph.

Each exercise draws its inputs from a seed (random data, random chains and shared graphs built
with real PyTorch), runs the answer in the student's kernel (``call``) and judges what it saw
against expected values the grader computes (``autograder/grading/judging/references/graph.py``). Nothing
here holds an answer: no expected flags, names or counts, only how to build the inputs and how to
name a mistake.
"""
import contextlib
import re

import torch
from torch.utils._python_dispatch import TorchDispatchMode

from ..checks import random_inputs as rand
from ..checks.compare import close, largest_difference
from ..checks.diagnose import diagnose_gradient, diagnose_tensor
from ..checks.explain_error import explain_error, known_error
from ..checks.mistakes import Mistake, require
from ..checks.observation import flags_of
from ..checks.technique import math_explained, snapshot
from ..exercise import Exercise
from ..lesson_footer import close_lesson


def _same_length(got, want: list, what: str) -> list:
    """The list sent back, refused unless it has one entry per trial (a short list must not pass)."""
    if not isinstance(got, list) or len(got) != len(want):
        raise Mistake(f"the check expected {len(want)} {what} and got something else back.", "unreadable")
    return got


# ---------------------------------------------------------------- leaf_from_list and make_leaf

LEAF_FROM_LIST_CASES = ["a list of ints", "a list of floats"]


def _leaf_from_list_inputs(rng):
    """The two lists a learner meets first: ints (an integer tensor unless told otherwise) and floats
    with more digits than float32 keeps."""
    ints = torch.randint(-9, 10, (rand.integer(rng, 2, 6),), generator=rng).tolist()
    floats = rand.tensor(rng, (rand.integer(rng, 2, 6),), torch.float64, -3.0, 3.0).tolist()
    return {"cases": [ints, floats]}


def _leaf_from_list_call(answer, inputs):
    seen = []
    for values in inputs["cases"]:
        try:
            got = answer(list(values))
        except (NotImplementedError, Mistake):
            raise
        except Exception as error:  # said for the case that raised, which the judge reaches in order
            seen.append({"raised": explain_error(error), "kind": type(error).__name__})
            continue
        seen.append({"tensor": got})
    return {"cases": seen}


def _recorded_step(grad_fn: str | None, data_requires_grad: bool = False, from_list: bool = False) -> str:
    """What made the tensor a result, read from its grad_fn, and the fix for that step."""
    if from_list:  # a list has no history: the operation came after requires_grad was switched on
        return ("Any operation after the tensor requires grad (a conversion, * 1.0, ...) is recorded and gives "
                "a result: let torch.tensor make the tensor with its dtype and requires_grad, and return it "
                "as it is.")
    if grad_fn and grad_fn.startswith("Clone"):
        return ("clone() of a tensor that requires grad is recorded: detach() it first "
                "(.detach().clone()), then require grad.")
    if grad_fn and grad_fn.startswith(("ToCopy", "Copy")) and data_requires_grad:
        return ("data itself requires grad here, so converting it (.double(), .to()) is recorded: "
                "detach() it first, then convert, copy and require grad.")
    if grad_fn and grad_fn.startswith(("ToCopy", "Copy")):
        return ("A conversion after requires_grad (such as .double() or .to()) is recorded: convert the "
                "dtype first, then require grad.")
    return ("An operation on a tensor that requires grad is recorded: start from a detached copy "
            "(.detach()), and switch requires_grad on last.")


def _judge_new_leaf(what: str, got, want: torch.Tensor, data_requires_grad: bool = False,
                    from_list: bool = False) -> None:
    """What both leaf exercises ask of the tensor made: float64, data's values, requires grad, a leaf."""
    if isinstance(got, torch.Tensor) and got.dtype != torch.float64 and from_list:
        raise Mistake(f"{what} has dtype {got.dtype}: make it torch.float64, and choose that dtype when "
                      "torch.tensor makes the tensor from the list (a conversion afterwards rounds floats "
                      "through float32 first).", "wrong_dtype")
    if isinstance(got, torch.Tensor) and got.dtype != torch.float64:
        raise Mistake(f"{what} has dtype {got.dtype}: make it torch.float64, whatever the data's own "
                      "dtype (choose the dtype when you create or convert it).", "wrong_dtype")
    require(diagnose_tensor(want, got, what))
    flags = flags_of(got)
    if not flags.requires_grad:
        raise Mistake(f"{what} does not require grad: switch requires_grad on for the new tensor.",
                      "no_requires_grad")
    if not flags.is_leaf:
        raise Mistake(f"{what} is not a leaf: it has a grad_fn ({flags.grad_fn}), so its .grad would stay "
                      f"None. {_recorded_step(flags.grad_fn, data_requires_grad, from_list)}", "not_leaf")
    if not torch.equal(got, want):
        if torch.equal(got, want.float().double()):
            raise Mistake(f"{what} has the values rounded to float32: the data went through float32 "
                          "(PyTorch's default) before float64. Choose float64 when you first make "
                          "the tensor.", "rounded_float32")
        error, index = largest_difference(got, want)
        raise Mistake(f"{what} does not hold data's values (largest difference {error:.3g} at index "
                      f"{index}): copy the values you were given.", "wrong_values")


def _leaf_from_list_judge(seen, expected, inputs):
    cases = _same_length(seen["cases"], expected["values"], "results")
    for description, case, want in zip(LEAF_FROM_LIST_CASES, cases, expected["values"]):
        if "raised" in case:
            raise Mistake(f"for {description}, your code raised {case['raised']}", str(case.get("kind"))[:40])
        _judge_new_leaf(f"for {description}, your tensor", case["tensor"], want, from_list=True)


MAKE_LEAF_CASES = [
    "a list of floats",
    "a list of ints",
    "an int64 tensor",
    "a float64 tensor",
    "a float32 tensor computed from another one (it has a grad_fn)",
    "a float64 leaf that requires grad",
    "a float64 tensor computed from another one (it has a grad_fn)",
]


def _make_leaf_inputs(rng):
    """Data of every kind a learner meets, one per entry of MAKE_LEAF_CASES."""
    shape = rand.shape(rng)
    floats = rand.tensor(rng, shape, torch.float64, -3.0, 3.0).tolist()
    ints = torch.randint(-9, 10, (rand.integer(rng, 2, 6),), generator=rng).tolist()
    w = rand.tensor(rng, shape, torch.float32, requires_grad=True)
    # float64 tensors that take part in a graph: torch.as_tensor(data, dtype=torch.float64) returns them
    # as they are, so an answer that changes "its" tensor in place changes the caller's.
    w64 = rand.tensor(rng, shape, torch.float64, requires_grad=True)
    return {"cases": [floats, ints, torch.randint(-9, 10, shape, generator=rng),
                      rand.tensor(rng, shape, torch.float64), w * 2,
                      rand.tensor(rng, shape, torch.float64, requires_grad=True), w64 * 2]}


def _shares_memory(got, data) -> bool:
    return isinstance(got, torch.Tensor) and isinstance(data, torch.Tensor) and \
        (got is data or got.untyped_storage().data_ptr() == data.untyped_storage().data_ptr())


def _make_leaf_call(answer, inputs):
    seen = []
    for data in inputs["cases"]:
        before = (snapshot(data)[0], data.grad_fn) if isinstance(data, torch.Tensor) else None
        try:
            got = answer(data)
        except (NotImplementedError, Mistake):
            raise
        except Exception as error:  # said for the case that raised, which the judge reaches in order
            seen.append({"raised": explain_error(error), "kind": type(error).__name__})
            continue
        changed = before is not None and (data.requires_grad != before[0].requires_grad or
                                          data.grad_fn is not before[1] or not torch.equal(data.detach(), before[0]))
        seen.append({"tensor": got, "shares_memory": _shares_memory(got, data), "changed_input": changed,
                     "data_requires_grad": isinstance(data, torch.Tensor) and data.requires_grad})
    return {"cases": seen}


def _make_leaf_judge(seen, expected, inputs):
    cases = _same_length(seen["cases"], expected["values"], "results")
    for description, case, want in zip(MAKE_LEAF_CASES, cases, expected["values"]):
        what = f"for {description}, your tensor"
        if "raised" in case:
            raise Mistake(f"for {description}, your code raised {case['raised']}", str(case.get("kind"))[:40])
        if case["shares_memory"] is not False:
            raise Mistake(f"{what} shares its memory with the tensor you were given: changing one would "
                          "change the other. Make a new tensor with clone() (after detach()).", "shares_memory")
        if case["changed_input"] is not False:
            raise Mistake(f"for {description}, your code changed the tensor it was given (its values or "
                          "its requires_grad). make_leaf must leave data as it was: build the new tensor "
                          "from a copy.", "input_changed")
        _judge_new_leaf(what, case["tensor"], want, case.get("data_requires_grad") is True)


# ---------------------------------------------------------------- grad_fn_names

# The course helpers that walk a graph for the student (each refuses under its own name, so the message
# names what the answer called), switched off while grad_fn_names and count_nodes are checked.
WALKS_THE_GRAPH = ("graph_text", "draw_graph", "backward_steps", "walk_graph")

# (text with {} for the input, function of (t, c) with c a constant tensor of t's shape)
# The core's chains keep the input that requires grad first: a constant (c, or the 1 of t + 1) is the
# operation's second input, its (None, 0) after the node to follow. count_nodes (going further) meets
# constants on either side.
WITH_CONSTANT = [
    ("({} + 1)", lambda t, c: t + 1),
    ("({} * c)", lambda t, c: t * c),
    ("({} - c)", lambda t, c: t - c),
]
CHAIN_OPS = [
    ("exp({})", lambda t, c: torch.exp(t)),
    ("sin({})", lambda t, c: torch.sin(t)),
    ("tanh({})", lambda t, c: torch.tanh(t)),
    ("sigmoid({})", lambda t, c: torch.sigmoid(t)),
    ("{}**2", lambda t, c: t**2),
    *WITH_CONSTANT,
]


def _random_chain(rng):
    """A leaf x, a chain y built from it, and y written out."""
    x = rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng), requires_grad=True)
    c = rand.tensor(rng, x.shape, x.dtype)
    length = rand.integer(rng, 2, 6)
    ops = [CHAIN_OPS[rand.integer(rng, 0, len(CHAIN_OPS) - 1)] for _ in range(length - 1)]
    # At least one constant, so an answer that follows the wrong entry of next_functions steps onto None.
    ops.insert(rand.integer(rng, 1, len(ops)), WITH_CONSTANT[rand.integer(rng, 0, len(WITH_CONSTANT) - 1)])
    t, text = x, "x"
    for template, op in ops:
        t, text = op(t, c), template.format(text)
    if rand.integer(rng, 0, 1):
        t, text = t.sum(), f"({text}).sum()"
    return x, t, text


def _chains_inputs(rng):
    return {"chains": [_random_chain(rng) for _ in range(3)]}


_NODE_REPR = re.compile(r"^<(\w+) object at 0x[0-9a-fA-F]+>$")


def _names_sent(got):
    """A list of names as it is, else what it holds: node objects are a mistake worth naming, and so
    are their printed forms (str(node) holds a memory address, new on every call)."""
    if isinstance(got, (list, tuple)) and all(isinstance(n, str) for n in got):
        printed = [m.group(1) for m in map(_NODE_REPR.match, got) if m]
        return {"printed_nodes": list(dict.fromkeys(printed))} if printed else list(got)
    if isinstance(got, (list, tuple)):
        return {"not_names": list(dict.fromkeys(type(n).__name__ for n in got if not isinstance(n, str)))}
    return {"not_names": [type(got).__name__]}


def _grad_fn_names_call(answer, inputs):
    with _walk_errors_explained("a constant has no backward node: follow the pair that holds one."):
        return {"names": [_names_sent(answer(y)) for _, y, _ in inputs["chains"]]}


def _short_name(name: str) -> str:
    # node.name() says "torch::autograd::AccumulateGrad" where the class is "AccumulateGrad"
    return name.rsplit("::", 1)[-1]


def _grad_fn_names_judge(seen, expected, inputs):
    sent = _same_length(seen["names"], expected["names"], "lists of names")
    for (_, _, text), got, want in zip(inputs["chains"], sent, expected["names"]):
        chain = f"(for y = {text}, c a constant tensor)" if " c)" in text else f"(for y = {text})"
        if isinstance(got, dict) and "printed_nodes" in got:
            raise Mistake(f"your list holds each node's printed form, str(node), such as '<{got['printed_nodes'][0]} "
                          "object at 0x...>', with a memory address that changes on every run: append the node's "
                          f"class name, a string such as '{got['printed_nodes'][0]}' {chain}.", "printed_nodes")
        if isinstance(got, dict):
            held = ", ".join(map(str, got.get("not_names", [])))
            if any(name.endswith(("Backward0", "Backward1")) or name == "AccumulateGrad"
                   for name in got.get("not_names", [])):
                raise Mistake(f"your list holds the nodes themselves ({held}), not their names: append each "
                              f"node's class name, a string {chain}.", "nodes_not_names")
            raise Mistake(f"return a list of strings, one grad_fn name per node; got {held} {chain}.",
                          "not_a_list_of_names")
        got = [_short_name(n) for n in got]
        if got == want:
            continue
        if got == want[::-1]:
            raise Mistake(f"your list is reversed: start at y.grad_fn (the output) and end at the leaf's "
                          f"AccumulateGrad {chain}.", "reversed")
        if got == want[:-1]:
            raise Mistake(f"your list stops before AccumulateGrad: the walk ends at the node that writes into "
                          f"x.grad, and it belongs in the list too {chain}.", "stops_before_leaf")
        if len(got) < len(want) and got == want[:len(got)]:
            raise Mistake(f"your list stops after {got[-1] if got else 'nothing'}, but the graph goes on: keep "
                          "stepping to the node in next_functions (not a None entry, which is a constant) "
                          f"until you have recorded AccumulateGrad {chain}.", "stopped_early")
        first = next((i for i, (g, w) in enumerate(zip(got, want)) if g != w), min(len(got), len(want)))
        raise Mistake(f"your list goes wrong at position {first}"
                      f"{f' ({got[first]!r})' if first < len(got) else ' (it ends there)'}: the chain has "
                      f"{len(want)} nodes from y.grad_fn to AccumulateGrad, your list has {len(got)}. "
                      "Print type(node).__name__ at each step of your walk to see where it leaves the "
                      f"chain {chain}.", "wrong_names")


def _nodes_where_raised(error: BaseException) -> list:
    """The backward nodes held by the innermost frame of the answer's traceback that holds any: the node
    the walk was standing on when it went wrong."""
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        nodes = [v for v in frame.f_locals.values()
                 if not isinstance(v, torch.Tensor) and isinstance(getattr(v, "next_functions", None), tuple)]
        if nodes:
            return nodes
    return []


# What a node has that None has not: only these errors mean a walk used a constant's None as a node
# (None.append, from names = names.append(...), is a mistake of another kind, said as raised).
_NODE_ATTRIBUTES = ("next_functions", "name", "variable", "metadata", "register_hook", "__name__")


def _used_none_as_node(message: str) -> bool:
    if message == "'NoneType' object is not subscriptable":
        return True
    return any(message == f"'NoneType' object has no attribute '{attr}'" for attr in _NODE_ATTRIBUTES)


@contextlib.contextmanager
def _walk_errors_explained(about_none: str):
    """The plain Python errors a walk of next_functions runs into, said in autograd terms: indexing the
    empty next_functions of AccumulateGrad (the likeliest first walk), a pair a node does not have, and a
    constant's None used as a node (``about_none`` says what to do about it in this exercise)."""
    try:
        yield
    except IndexError as error:
        if "tuple index out of range" not in str(error):
            raise
        nodes = _nodes_where_raised(error)
        if not nodes or any(n.next_functions == () for n in nodes):
            meaning = ("AccumulateGrad is the last node: its next_functions is empty, so there is no pair to "
                       "step to. Stop after recording it.")
            kind = "past_accumulate_grad"
        else:
            meaning = ("your walk asked a node for a pair it does not have: next_functions holds one pair per "
                       "input of the operation (one for sin or sum, two for *).")
            kind = "missing_pair"
        raise Mistake(f"your code raised {explain_error(error)}\n  In autograd terms: {meaning}", kind) from None
    except (AttributeError, TypeError) as error:
        if not _used_none_as_node(str(error)):
            raise
        said = f"{type(error).__name__}: {str(error).splitlines()[0]}"  # the walk's own meaning follows
        raise Mistake(f"your code raised {said}\n  In autograd terms: your walk stepped onto "
                      "a None entry of next_functions and used it as a node. An input that does not require "
                      f"grad (a constant) shows up as (None, 0), and {about_none}", "stepped_on_none") from None


# ---------------------------------------------------------------- count_nodes

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


def _count_nodes_inputs(rng):
    return {"graphs": [_random_shared_graph(rng) for _ in range(2)]}


def _count_nodes_call(answer, inputs):
    with _walk_errors_explained("a constant has no backward node: skip the None entries."):
        # each graph twice in a row: a walk that keeps what it saw between calls counts less the second time
        counts = [(answer(y), answer(y)) for y, _ in inputs["graphs"]]
    return {"counts": [first for first, _ in counts], "again": [again for _, again in counts]}


def _count_nodes_judge(seen, expected, inputs):
    sent = _same_length(seen["counts"], expected["graphs"], "counts")
    again_sent = _same_length(seen.get("again"), expected["graphs"], "counts")
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


# ---------------------------------------------------------------- predict_flags

# The expressions to predict, and the section that teaches what decides each one: a wrong
# prediction is sent back there (the rule itself would be the answer, which only the grader holds).
FLAG_SECTIONS = {
    "a * b": "sections 1 and 2 (when an operation is recorded, and what makes a tensor a leaf)",
    "a.detach()": "section 7 (what detach() returns)",
    "a.double()": "section 2 (the .double() example: a conversion is an operation too)",
    "a + b.detach()": "sections 1 and 7 (which inputs decide whether an operation is recorded)",
    "nn.Parameter(b)": "section 7 (what nn.Parameter makes)",
}
EXPRESSIONS = list(FLAG_SECTIONS)
FLAG_CASES = [(a, b) for a in (False, True) for b in (False, True)]


def flag_table(cases, pairs: list[dict]) -> list[dict]:
    """A whole prediction as one value, in the trial's case order: the grader seals it whole, so
    what students have says whether a table is right, never which pair is."""
    return [{"a_requires": bool(a), "b_requires": bool(b), "flags": {key: list(p[key]) for key in sorted(p)}}
            for (a, b), p in zip(cases, pairs)]


def without(table: list[dict], key: str, case: int | None = None) -> list[dict]:
    """The table with one expression left out (of every case, or of one case only): its seal tells
    a table wrong in that place alone from one wrong elsewhere, still without saying the answer."""
    return [{**row, "flags": {k: v for k, v in row["flags"].items() if k != key or (case is not None and i != case)}}
            for i, row in enumerate(table)]


class _NoTensorOperations(TorchDispatchMode):
    """Refuse every tensor operation, creation included: torch.tensor, torch.Tensor, from_numpy...

    A dispatch mode sees what reaches PyTorch's kernels, so no spelling of "make a tensor and
    read its flags" gets past it.
    """

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.overloadpacket.__name__
        # kernels' names are PyTorch's own: torch.tensor(...) reaches them as lift_fresh
        did = ("built a tensor (torch.tensor(...))" if name.startswith("lift_fresh") else
               f"ran a tensor operation (torch.{name})" if hasattr(torch, name) and not name.startswith("_") else
               "ran a tensor operation")
        raise Mistake(f"predict the flags from the rules, without building tensors: your code {did} while "
                      "predicting.", "measured")


def _predict_flags_inputs(rng):
    order = torch.randperm(len(FLAG_CASES), generator=rng).tolist()
    return {"cases": [list(FLAG_CASES[i]) for i in order]}


def _predict_flags_call(answer, inputs):
    predictions = []
    for a_requires, b_requires in inputs["cases"]:
        with _NoTensorOperations():
            predictions.append(answer(a_requires, b_requires))
    return {"predictions": predictions}


def _pair(prediction: dict, key: str, where: str) -> list:
    pair = prediction[key]
    if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(v, bool) for v in pair):
        raise Mistake(f"{where}, the value for {key!r} should be a pair of bools (requires_grad, is_leaf), "
                      f"got {pair!r}.", "not_a_pair")
    return pair


def _predict_flags_judge(seen, expected, inputs):
    cases = inputs["cases"]
    sent = _same_length(seen["predictions"], cases, "predictions")
    pairs = []
    for (a_requires, b_requires), prediction in zip(cases, sent):
        where = f"for a_requires={a_requires}, b_requires={b_requires}"
        if not isinstance(prediction, dict):
            raise Mistake(f"return a dict with exactly the keys {EXPRESSIONS}; got a "
                          f"{type(prediction).__name__} {where}.", "wrong_keys")
        if set(prediction) != set(EXPRESSIONS):
            missing = [key for key in EXPRESSIONS if key not in prediction]
            extra = sorted(map(repr, set(prediction) - set(EXPRESSIONS)))
            raise Mistake("return a dict with exactly the keys of the five expressions, written as the "
                          f"exercise writes them (spaces included): missing {', '.join(map(repr, missing))}"
                          f"{'; not expected ' + ', '.join(extra) if extra else ''}.", "wrong_keys")
        pairs.append({key: _pair(prediction, key, where) for key in EXPRESSIONS})
    table = flag_table(cases, pairs)
    if expected["table"].matches(table):
        return
    if expected["table"].matches(flag_table(cases, [{k: v[::-1] for k, v in p.items()} for p in pairs])):
        raise Mistake("each of your pairs is in the wrong order: give (requires_grad, is_leaf), requires_grad "
                      "first.", "pair_swapped")
    for key in EXPRESSIONS:
        for i, (a_requires, b_requires) in enumerate(cases):
            if expected["one_pair"][key][i].matches(without(table, key, i)):
                said = pairs[i][key]
                raise Mistake(f"your prediction for `{key}` is wrong for a_requires={a_requires}, "
                              f"b_requires={b_requires} (the rest of your table is right): you said "
                              f"requires_grad={said[0]}, is_leaf={said[1]}. Ask whether an operation was "
                              f"recorded there: what decides it is in {FLAG_SECTIONS[key]}.", "wrong_prediction")
        if expected["one_expression"][key].matches(without(table, key)):
            raise Mistake(f"your predictions for `{key}` are wrong (the other four expressions are right): work "
                          f"out its requires_grad for each case first, then is_leaf. What decides them is in "
                          f"{FLAG_SECTIONS[key]}.", "wrong_prediction")
    raise Mistake("your predictions are wrong for more than one expression (once only one is wrong, the check "
                  "names it: it cannot tell which without saying the answer). Take one expression at a time: was "
                  "an operation recorded (only if some input requires grad)? Then is_leaf follows (a leaf has "
                  "no grad_fn). detach() and nn.Parameter each make a new leaf: section 7 says what each does to "
                  "requires_grad.", "wrong_prediction")


# ---------------------------------------------------------------- build_f

REQUIRED_OPS = [("Log", "log(x^2)"), ("Sin", "sin(x)")]
# What PyTorch says when a tensor is turned into a Python number, or handed to NumPy.
LEFT_AUTOGRAD = ("only one element tensors can be converted to Python scalars", "cannot be converted to Scalar",
                 "Can't call numpy() on Tensor that requires grad")


def _build_f_inputs(rng):
    x = rand.away_from_zero(rng, rand.shape(rng), rand.float_dtype(rng))
    flat = x.view(-1)  # both signs, always: log(x) and log(x**2) differ only for x < 0
    flat[0], flat[1] = -flat[0].abs(), flat[1].abs()
    return {"x": x.requires_grad_(True)}


def _reaches(y: torch.Tensor, x: torch.Tensor) -> bool:
    """Whether the graph behind y ends at the very tensor x (not a copy of it)."""
    stack, seen = [y.grad_fn], set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if getattr(node, "variable", None) is x:
            return True
        stack.extend(n for n, _ in node.next_functions)
    return False


def _node_names(y: torch.Tensor) -> list[str]:
    stack, seen, names = [y.grad_fn], set(), set()
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.add(type(node).__name__)
        stack.extend(n for n, _ in node.next_functions)
    return sorted(names)


def _build_f_call(answer, inputs):
    x = inputs["x"]
    before = snapshot(x)[0]
    try:
        with math_explained():
            got = answer(x)
    except (TypeError, ValueError, RuntimeError) as error:
        if known_error(error) is not None and known_error(error).key == "leaf_in_place":
            # explain_error's advice (no_grad() for a parameter's update) would cut f's graph here
            raise Mistake("your code changed x in place (an operation ending in _, or +=, *=, ... on x), and x is "
                          "a leaf that requires grad: autograd refuses. Compute out of place (x**2, not "
                          "x.pow_(2)): each operation makes a new result in the graph and leaves x as it was.",
                          "in_place_on_x") from None
        if any(fragment in str(error) for fragment in LEFT_AUTOGRAD):
            raise Mistake("your code turned the tensor x into a Python number or a NumPy array "
                          f"({type(error).__name__}: {str(error).splitlines()[0]}). Autograd records only "
                          "torch operations on tensors: use torch.log, torch.sin and the operators on x "
                          "itself.", "left_autograd") from None
        raise
    seen = {"f": got, "called_backward": x.grad is not None,
            "changed_input": x.requires_grad != before.requires_grad or not torch.equal(x.detach(), before),
            "reaches_x": False, "nodes": [], "grad": None}
    if isinstance(got, torch.Tensor) and got.grad_fn is not None:
        seen["reaches_x"], seen["nodes"] = _reaches(got, x), _node_names(got)
        if seen["reaches_x"] and got.shape == x.shape:
            try:
                (seen["grad"],) = torch.autograd.grad(got, x, torch.ones_like(got), retain_graph=True)
            except RuntimeError:  # the answer freed the graph with a backward() of its own
                pass
    return seen


def _not_recorded():
    raise Mistake("f(x) has no grad_fn: autograd recorded nothing. Compute with torch operations on x "
                  "itself (no .item(), .numpy(), math.*, .detach() or .data), and return the result as it is: "
                  "torch.tensor(...) of a result copies its values without their history, and so does a tensor "
                  "rebuilt from numbers taken out of x (x.tolist(), .item()).", "not_recorded")


def _build_f_judge(seen, expected, inputs):
    f = seen["f"]
    # a broken graph first: a result rebuilt from numbers also has the default dtype, the lesser mistake
    if isinstance(f, torch.Tensor) and seen["changed_input"] is False and flags_of(f).grad_fn is None:
        _not_recorded()
    require(diagnose_tensor(expected["f"], f, "f(x)"))
    if seen["changed_input"] is not False:
        raise Mistake("your code changed x (its values or its requires_grad): build f(x) from x and leave "
                      "x as it was.", "input_changed")
    if flags_of(f).grad_fn is None:
        _not_recorded()
    if seen["called_backward"] is not False:
        raise Mistake("x.grad is set: your function called backward(). Return f(x) and let the caller "
                      "decide what to do with the graph.", "called_backward")
    if torch.isnan(f).any():
        raise Mistake("f(x) contains NaN: a log of a negative number? x takes both signs here.", "nan")
    if not close(f, expected["f"]):
        error, index = largest_difference(f, expected["f"])
        raise Mistake(f"f(x) differs from log(x^2) sin(x) + 1/x: the largest error is {error:.3g} at index "
                      f"{index}. Check each term.", "wrong_value")
    if seen["reaches_x"] is not True:
        raise Mistake("the graph of f(x) does not end at the x you were given but at a copy of it, so "
                      "backward() would never fill x.grad. x already requires grad: use it directly.",
                      "graph_misses_x")
    grad = seen["grad"]
    if isinstance(grad, torch.Tensor) and grad.shape == expected["grad"].shape and close(grad, expected["grad"]):
        return  # right values, right gradient: any way of writing f is fine (sin as a shifted cos, ...)
    nodes = seen["nodes"]
    for op, term in REQUIRED_OPS:  # the likeliest term left out of the graph, when it has no node at all
        if not any(isinstance(name, str) and name.startswith(op) for name in nodes):
            raise Mistake(f"the graph of f(x) has no {op}Backward node: the {term} term was not recorded "
                          "(computed from x.detach(), .data or a plain number?), so no gradient flows "
                          f"through it. Nodes found: {', '.join(map(str, nodes))}.", "term_not_recorded")
    if isinstance(grad, torch.Tensor) and grad.shape == expected["grad"].shape and not torch.isnan(grad).any():
        raise Mistake("the gradient of f at x is wrong although f(x) is right: part of f was computed "
                      "outside the graph (from x.detach(), x.data or a Python number), so no gradient "
                      "flows through that part. Build every term from x itself.", "term_not_recorded")
    require(diagnose_gradient(expected["grad"], grad, "the gradient of f at x"))


leaf_from_list = Exercise(_leaf_from_list_inputs, _leaf_from_list_call, _leaf_from_list_judge, [
    "Three things must hold for the tensor: dtype float64, requires_grad True, and no grad_fn (a leaf).",
    "A list of ints gives an integer tensor, and only floating-point tensors can require grad. "
    "torch.tensor can be told both the dtype and requires_grad when it makes the tensor; a conversion "
    "afterwards is a recorded operation.",
])
grad_fn_names = Exercise(_chains_inputs, _grad_fn_names_call, _grad_fn_names_judge, [
    "Start at y.grad_fn and write down each node's class name as you step down the chain, the way the "
    "section 3 cell steps three times. The last node, AccumulateGrad, has nowhere to step to.",
    "node.next_functions holds one (node, index) pair per input of the operation. In these chains the "
    "input that requires grad comes first, so the next node is in the first pair; a constant's "
    "(None, 0) comes after it.",
    "type(node).__name__ is the name. AccumulateGrad's next_functions is empty, so indexing it fails: "
    "record AccumulateGrad, then stop before stepping on.",
], closes=WALKS_THE_GRAPH)
build_f = Exercise(_build_f_inputs, _build_f_call, _build_f_judge, [
    "Use torch functions on x itself (x already requires grad): every operation you apply is recorded.",
    "math.log and math.sin work on Python numbers only, and NumPy cannot carry a graph: torch has its own "
    "log and sin, and / and ** work on tensors. Don't copy or detach x, and don't call backward().",
])
count_nodes = Exercise(_count_nodes_inputs, _count_nodes_call, _count_nodes_judge, [
    "Walk from y.grad_fn as in Exercise 2, but an operation can now have several inputs that require "
    "grad: follow every non-None entry of next_functions, not just one. Keep a list of the nodes still to "
    "visit (a stack: append what you find, pop the next one to look at), or let a function call itself "
    "on each input's node.",
    "The same node can be reached along several paths (h in h * h, or a diamond). Remember the nodes "
    "you have already counted and skip them when you reach them again.",
    "Remember nodes by identity, not by name: two different nodes can both be MulBackward0, and each "
    "leaf has its own AccumulateGrad.",
], closes=WALKS_THE_GRAPH)
predict_flags = Exercise(_predict_flags_inputs, _predict_flags_call, _predict_flags_judge, [
    "Two rules decide most of it: a result requires grad if any input does, and a tensor is a leaf "
    "exactly when it has no grad_fn (nothing recorded it).",
    "For each expression ask: was an operation recorded? Only when some input requires grad. detach() "
    "and nn.Parameter are different: each makes a new leaf, and section 7 says what each does to "
    "requires_grad.",
    "Write each expression's requires_grad in terms of a_requires and b_requires first (some ignore both); "
    "is_leaf then follows from whether anything was recorded.",
])
make_leaf = Exercise(_make_leaf_inputs, _make_leaf_call, _make_leaf_judge, [
    "Three things must hold for the result: dtype float64, requires_grad True, and no grad_fn (a leaf). "
    "The order of the steps decides the last one.",
    "Any operation on a tensor that already requires grad is recorded and gives a result, not a leaf. "
    "Settle the dtype and make the copy while nothing requires grad, and switch requires_grad on last.",
    "data belongs to the caller, and a conversion that changes nothing (.double() of a tensor that is "
    "already float64) hands back data itself, not a copy. Which of your steps still act on data rather "
    "than on a copy made with detach().clone()?",
])

# The lesson's last cell calls check.progress(globals()); CORE is its first pass, the lesson's essentials.
EXERCISES, CORE, progress, ERROR_SECTIONS = close_lesson(
    globals(), core=("leaf_from_list", "grad_fn_names"), written={"dynamic_graph": 2})
