"""`build_f(x)`: a function of x whose graph autograd records (log of x^2, sin), with no step that leaves it."""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import close, largest_difference
from ...checks.diagnose import diagnose_gradient, diagnose_tensor
from ...checks.explain_error import explain_error, known_error
from ...checks.mistakes import Mistake, require
from ...checks.observation import flags_of
from ...checks.read_back import same_length
from ...checks.technique import math_explained, snapshot
from ...exercise import Exercise


REQUIRED_OPS = [("Log", "log(x^2)"), ("Sin", "sin(x)")]


# What PyTorch says when a tensor is turned into a Python number, or handed to NumPy.
LEFT_AUTOGRAD = ("only one element tensors can be converted to Python scalars", "cannot be converted to Scalar",
                 "Can't call numpy() on Tensor that requires grad")


def _both_signs(rng, shape, dtype) -> torch.Tensor:
    """Values between 0.5 and 2 in size, of either sign, and both signs whenever there are two values:
    log(x) and log(x**2) differ only for x < 0."""
    x = rand.away_from_zero(rng, shape, dtype)
    flat = x.view(-1)
    if flat.numel() > 1:
        flat[0], flat[1] = -flat[0].abs(), flat[1].abs()
    return x.requires_grad_(True)


def inputs(rng):
    """In every trial: an x of either dtype and shape, a float64 x of one or more rows, and a 0-d x."""
    return {"xs": [_both_signs(rng, rand.shape(rng), rand.float_dtype(rng)),
                   _both_signs(rng, (rand.integer(rng, 1, 3), rand.integer(rng, 2, 4)), torch.float64),
                   _both_signs(rng, (), torch.float32)]}


def which_x(x: torch.Tensor) -> str:
    return f"x of shape {tuple(x.shape)} and dtype {x.dtype}"


def _leaves(y: torch.Tensor) -> list[torch.Tensor]:
    """The leaves that require grad at the ends of the graph behind y (the variables of its AccumulateGrad nodes)."""
    stack, seen, leaves = [y.grad_fn], set(), []
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if hasattr(node, "variable"):
            leaves.append(node.variable)
        stack.extend(n for n, _ in node.next_functions)
    return leaves


def _foreign(leaf: torch.Tensor, x: torch.Tensor) -> bool:
    """A leaf that is neither x nor a copy of x's values: kept from an earlier call, or made elsewhere."""
    return leaf is not x and (leaf.shape != x.shape or not torch.equal(leaf.detach(), x.detach().to(leaf.dtype)))


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


def _observe(answer, x):
    before = snapshot(x)[0]
    try:
        with math_explained():
            got = answer(x)
    except (NotImplementedError, Mistake):
        raise
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
        return {"raised": explain_error(error), "kind": type(error).__name__}
    except Exception as error:  # said for the x that raised, which the judge reaches in order
        return {"raised": explain_error(error), "kind": type(error).__name__}
    seen = {"f": got, "called_backward": x.grad is not None,
            "changed_input": x.requires_grad != before.requires_grad or x.dtype != before.dtype or
            not torch.equal(x.detach(), before),  # torch.equal ignores dtypes (x.data = ... converts x in place)
            "reaches_x": False, "foreign_leaf": False, "nodes": [], "grad": None}
    if isinstance(got, torch.Tensor) and got.grad_fn is not None:
        leaves = _leaves(got)
        seen["reaches_x"], seen["nodes"] = any(leaf is x for leaf in leaves), _node_names(got)
        seen["foreign_leaf"] = any(_foreign(leaf, x) for leaf in leaves)
        if seen["reaches_x"] and got.shape == x.shape:
            try:
                (seen["grad"],) = torch.autograd.grad(got, x, torch.ones_like(got), retain_graph=True)
            except RuntimeError:  # the answer freed the graph with a backward() of its own
                pass
    return seen


def call(answer, inputs):
    return {"cases": [_observe(answer, x) for x in inputs["xs"]]}


def _not_recorded():
    raise Mistake("f(x) has no grad_fn: autograd recorded nothing. Compute with torch operations on x "
                  "itself (no .item(), .numpy(), math.*, .detach() or .data), and return the result as it is: "
                  "torch.tensor(...) of a result copies its values without their history, and so does a tensor "
                  "rebuilt from numbers taken out of x (x.tolist(), .item()).", "not_recorded")


def _judge_one(seen, expected):
    if "raised" in seen:
        zero_d = ("\n  x can be a single number (a 0-d tensor), with no items to go through: apply torch's operations "
                  "to x whole, which works elementwise whatever its shape." if "0-d" in seen["raised"] else "")
        raise Mistake(f"your code raised {seen['raised']}{zero_d}", str(seen.get("kind"))[:40])
    f = seen["f"]
    # a broken graph first: a result rebuilt from numbers also has the default dtype, the lesser mistake
    if isinstance(f, torch.Tensor) and seen["changed_input"] is False and flags_of(f).grad_fn is None:
        _not_recorded()
    if isinstance(f, torch.Tensor) and f.shape != expected["f"].shape:
        raise Mistake(f"f(x) has shape {tuple(f.shape)}, but x has shape {tuple(expected['f'].shape)}: f works "
                      "elementwise, so f(x) has x's shape. Apply the operations to x as it is (no flatten(), "
                      "view(-1), squeeze() or sum()).", "wrong_shape")
    require(diagnose_tensor(expected["f"], f, "f(x)"))
    if seen["changed_input"] is not False:
        raise Mistake("your code changed x (its values or its requires_grad): build f(x) from x and leave "
                      "x as it was.", "input_changed")
    if flags_of(f).grad_fn is None:
        _not_recorded()
    if seen["called_backward"] is not False:
        raise Mistake("x.grad is set: your function called backward(). Return f(x) and let the caller "
                      "decide what to do with the graph.", "called_backward")
    if seen["foreign_leaf"] is not False:
        raise Mistake("the graph of f(x) reaches a leaf that is not the x you were given and holds other values: "
                      "a tensor kept from an earlier call (in a global, a cache or a default argument) or made "
                      "elsewhere. Build every term from this call's x.", "stale_leaf")
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


def judge(seen, expected, inputs):
    cases = same_length(seen["cases"], expected["cases"], "results")
    for x, case, want in zip(inputs["xs"], cases, expected["cases"]):
        try:
            _judge_one(case, want)
        except Mistake as mistake:
            raise Mistake(f"{mistake} (For {which_x(x)}.)", mistake.kind) from None


HINTS = [
    "Use torch functions on x itself (x already requires grad): every operation you apply is recorded.",
    "math.log and math.sin work on Python numbers only, and NumPy cannot carry a graph: torch has its own "
    "log and sin, and / and ** work on tensors. Don't copy or detach x, and don't call backward().",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
