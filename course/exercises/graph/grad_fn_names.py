"""`grad_fn_names(y)`: the names of the nodes along a chain, from `y.grad_fn` down to `AccumulateGrad`.

The course's own graph walkers are closed while it is checked (``walk_errors.WALKS_THE_GRAPH``).
"""
import contextlib
import re

import torch

from ...checks import random_inputs as rand
from ...checks.mistakes import Mistake
from ...checks.read_back import same_length
from ...checks.walk_errors import WALKS_THE_GRAPH, walk_errors_explained
from ...exercise import Exercise


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


GROWING = {"exp({})", "{}**2"}
BOUNDED = [op for op in CHAIN_OPS if op[0] not in GROWING]


def _random_chain(rng, repeated: bool = False, shortest: bool = False):
    """A leaf x, a chain y built from it, and y written out. ``repeated``: one operation twice in a row
    (two nodes of one name, both in the list); ``shortest``: one operation on x, with a constant."""
    x = rand.tensor(rng, rand.shape(rng), rand.float_dtype(rng), requires_grad=True)
    c = rand.tensor(rng, x.shape, x.dtype)
    if shortest:
        ops = [WITH_CONSTANT[rand.integer(rng, 0, len(WITH_CONSTANT) - 1)]]
    else:
        length = rand.integer(rng, 2, 6)
        ops = []
        for _ in range(length - 1):  # one growing operation at most (exp of exp of exp is inf in float32)
            op = CHAIN_OPS[rand.integer(rng, 0, len(CHAIN_OPS) - 1)]
            grown = any(template in GROWING for template, _ in ops)
            ops.append(BOUNDED[rand.integer(rng, 0, len(BOUNDED) - 1)] if grown and op[0] in GROWING else op)
        if repeated:  # a bounded operation twice in a row
            twice = rand.integer(rng, 0, len(ops))
            ops.insert(twice, BOUNDED[rand.integer(rng, 0, len(BOUNDED) - 1)])
            ops.insert(twice, ops[twice])
        # At least one constant, so an answer that follows the wrong entry of next_functions steps onto None.
        ops.insert(rand.integer(rng, 1, len(ops)), WITH_CONSTANT[rand.integer(rng, 0, len(WITH_CONSTANT) - 1)])
    t, text = x, "x"
    for template, op in ops:
        t, text = op(t, c), template.format(text)
    if not shortest and rand.integer(rng, 0, 1):
        t, text = t.sum(), f"({text}).sum()"
    return x, t, text.removeprefix("(").removesuffix(")") if shortest else text


def inputs(rng):
    """Three chains in every trial: any chain, one with a name twice, and the shortest (one operation)."""
    return {"chains": [_random_chain(rng), _random_chain(rng, repeated=True), _random_chain(rng, shortest=True)]}


_NODE_REPR = re.compile(r"^<(\w+) object at 0x[0-9a-fA-F]+>$")
_CLASS_REPR = re.compile(r"^<class '(?:[\w.]+\.)?(\w+)'>$")


def _names_sent(got):
    """A list of names as it is, else what it holds: node objects are a mistake worth naming, and so
    are their printed forms (str(node) holds a memory address, new on every call)."""
    if isinstance(got, (list, tuple)) and all(isinstance(n, str) for n in got):
        printed = [m.group(1) for m in map(_NODE_REPR.match, got) if m]
        return {"printed_nodes": list(dict.fromkeys(printed))} if printed else list(got)
    if isinstance(got, (list, tuple)):
        return {"not_names": list(dict.fromkeys(type(n).__name__ for n in got if not isinstance(n, str)))}
    return {"not_names": [type(got).__name__]}


# list.append and set.add change their object and return None: `names = names.append(...)` leaves None there,
# which the next append, or the next `node in seen`, trips over.
_KEPT_NONE = re.compile(r"^'NoneType' object has no attribute '(append|add|extend|update)'$")
_IN_NONE = "argument of type 'NoneType' is not iterable"


@contextlib.contextmanager
def kept_none_explained():
    """`names = names.append(...)` in a walk: a Python slip, said in Python terms with its fix (a walk
    that steps onto a constant's None fails with other attributes, which walk_errors_explained names)."""
    try:
        yield
    except (AttributeError, TypeError) as error:
        slip = _KEPT_NONE.match(str(error))
        if slip:
            method = slip.group(1)
            why = (f".{method}() changes the collection it is called on and returns None, so assigning what it "
                   f"returns (`names = names.{method}(...)`) leaves None in the variable. Call it on its own line: "
                   f"`names.{method}(...)`.")
        elif str(error) == _IN_NONE:
            why = ("`in` was asked to look inside None. Was your collection of seen nodes given what .add() or "
                   ".append() returns (`seen = seen.add(node)`), which is None? Call it on its own line: "
                   "`seen.add(node)`.")
        else:
            raise
        raise Mistake(f"your code raised {type(error).__name__}: {error}\n  In Python terms: {why}", "kept_none") from None


def call(answer, inputs):
    with walk_errors_explained("a constant has no backward node: follow the pair that holds one."), kept_none_explained():
        return {"names": [_names_sent(answer(y)) for _, y, _ in inputs["chains"]]}


def _short_name(name: str) -> str:
    # node.name() says "torch::autograd::AccumulateGrad" where the class is "AccumulateGrad"
    return name.rsplit("::", 1)[-1]


def _chain(text: str) -> str:
    return f"(for y = {text}, c a constant tensor)" if re.search(r"\bc\b", text) else f"(for y = {text})"


# Lists that hold the right names, changed in one way: each is named only when it explains every chain of the
# trial (a reversed list and a sorted one can look alike on one chain, not on three).
REARRANGED = [
    ("reversed", lambda want: want[::-1],
     "your list is reversed: start at y.grad_fn (the output) and end at the leaf's AccumulateGrad"),
    ("stops_before_leaf", lambda want: want[:-1],
     "your list stops before AccumulateGrad: the walk ends at the node that writes into x.grad, and it belongs "
     "in the list too"),
    ("names_deduplicated", lambda want: list(dict.fromkeys(want)),
     "your list holds each name once, but two operations of the same kind are two nodes (sin(sin(x)) has two "
     "SinBackward0): append one name per node you step on, repeats included"),
    ("names_deduplicated", lambda want: sorted(set(want)),
     "your list holds each name once, sorted: two operations of the same kind are two nodes (sin(sin(x)) has two "
     "SinBackward0), and the list follows the walk. Append one name per node you step on, in the order you "
     "meet them"),
    ("wrong_order", sorted,
     "your list holds the right names in alphabetical order: list them in the order the walk meets them, from "
     "y.grad_fn down to AccumulateGrad"),
]


def _names_or_mistake(got, chain: str) -> list[str]:
    """The names sent for one chain, or the Mistake of sending something else."""
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
        if held == "NoneType":
            raise Mistake(f"your function returned None: a missing `return`? Return the list of names {chain}.",
                          "none_returned")
        raise Mistake(f"return a list of strings, one grad_fn name per node; got {held} {chain}.",
                      "not_a_list_of_names")
    return [_short_name(n) for n in got]


def judge(seen, expected, inputs):
    sent = same_length(seen["names"], expected["names"], "lists of names")
    chains = [(_chain(text), _names_or_mistake(got, _chain(text)), want)
              for (_, _, text), got, want in zip(inputs["chains"], sent, expected["names"])]
    wrong = [(chain, got, want) for chain, got, want in chains if got != want]
    if not wrong:
        return
    fits = [(kind, why) for kind, rearrange, why in REARRANGED
            if all(got == rearrange(want) for _, got, want in chains)]
    if fits:
        (kind, why), others = fits[0], fits[1:]
        also = f" (On these chains your lists fit another mistake as well: {others[0][1]}.)" if others else ""
        raise Mistake(f"{why} {wrong[0][0]}.{also}", kind)
    chain, got, want = wrong[0]
    printed_class = next((m for m in map(_CLASS_REPR.match, got) if m), None)
    if printed_class:
        raise Mistake(f"your list holds str(type(node)), such as {printed_class.group(0)!r}: type(node).__name__ "
                      f"is the class name alone, such as {printed_class.group(1)!r} {chain}.", "class_repr")
    if "NoneType" in got:
        raise Mistake(f"your list holds 'NoneType', the class of None: a constant's (None, 0) entry in "
                      f"next_functions is not a node. Step only to the node in the pair that holds one {chain}.",
                      "none_as_node")
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


HINTS = [
    "Start at y.grad_fn and write down each node's class name as you step down the chain, the way the "
    "section 3 cell steps three times. The last node, AccumulateGrad, has nowhere to step to.",
    "node.next_functions holds one (node, index) pair per input of the operation. In these chains the "
    "input that requires grad comes first, so the next node is in the first pair; a constant's "
    "(None, 0) comes after it.",
    "type(node).__name__ is the name. AccumulateGrad's next_functions is empty, so indexing it fails: "
    "record AccumulateGrad, then stop before stepping on.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS, closes=WALKS_THE_GRAPH)
