"""`build_f(x)`: a function of x whose graph autograd records (log of x^2, sin), with no step that leaves it."""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import close, largest_difference
from ...checks.diagnose import diagnose_gradient, diagnose_tensor
from ...checks.explain_error import known_error
from ...checks.mistakes import Mistake, require
from ...checks.observation import flags_of
from ...checks.technique import math_explained, snapshot
from ...exercise import Exercise


REQUIRED_OPS = [("Log", "log(x^2)"), ("Sin", "sin(x)")]


# What PyTorch says when a tensor is turned into a Python number, or handed to NumPy.
LEFT_AUTOGRAD = ("only one element tensors can be converted to Python scalars", "cannot be converted to Scalar",
                 "Can't call numpy() on Tensor that requires grad")


def inputs(rng):
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


def call(answer, inputs):
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


def judge(seen, expected, inputs):
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


HINTS = [
    "Use torch functions on x itself (x already requires grad): every operation you apply is recorded.",
    "math.log and math.sin work on Python numbers only, and NumPy cannot carry a graph: torch has its own "
    "log and sin, and / and ** work on tensors. Don't copy or detach x, and don't call backward().",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
