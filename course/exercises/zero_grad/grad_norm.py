"""`grad_norm(model)`: the global norm of every `.grad` that is not None, read without changing any."""
import math
from contextlib import contextmanager

import torch
from torch import nn

from ...checks import random_inputs as rand
from ...checks.compare import same_number
from ...checks.mistakes import Mistake
from ...checks.parameters import as_attribute, grads_of, none_grad_judged
from ...checks.random_models import random_mlp
from ...checks.read_back import number
from ...exercise import Exercise


def inputs(rng):
    model = random_mlp(rng, rand.integer(rng, 1, 4), rand.integer(rng, 1, 3))
    x = rand.tensor(rng, (rand.integer(rng, 2, 5), model[0].in_features), torch.float64)
    (model(x) ** 2).sum().backward()
    params = list(model.parameters())
    with torch.no_grad():  # a total norm of random size, between 2 and 20
        scale = float(rand.tensor(rng, (), torch.float64, 2.0, 20.0)) / float(
            torch.linalg.vector_norm(torch.cat([p.grad.reshape(-1) for p in params])))
        for p in params:
            p.grad *= scale
    params[rand.integer(rng, 0, len(params) - 1)].grad = None  # e.g. a frozen or unused parameter
    # and a model no backward() has reached yet: no .grad at all, a norm of 0
    return {"model": model, "no_grads": random_mlp(rng, rand.integer(rng, 1, 4), rand.integer(rng, 1, 3))}


@contextmanager
def _clip_grad_norm_refused():
    """The exercise asks for the norm computed by hand; clip_grad_norm_ rescales .grad unless max_norm is inf."""
    original = nn.utils.clip_grad_norm_

    def refuse(*args, **kwargs):
        max_norm = kwargs.get("max_norm", args[1] if len(args) > 1 else None)
        try:
            rescales = math.isfinite(float(max_norm))
        except (TypeError, ValueError):
            rescales = True
        why = (" With a finite max_norm it would also rescale every .grad in place." if rescales else
               " With max_norm=inf it changes no .grad, but it still computes the norm for you.")
        raise Mistake("the exercise asks you to compute the norm yourself, from the .grad tensors, not with "
                      "clip_grad_norm_." + why, "forbidden_shortcut")

    nn.utils.clip_grad_norm_ = refuse
    try:
        yield
    finally:
        nn.utils.clip_grad_norm_ = original


def call(answer, inputs):
    named = list(inputs["model"].named_parameters())
    before = grads_of(p for _, p in named)
    with _clip_grad_norm_refused():
        try:
            got = answer(inputs["model"])
        except (TypeError, AttributeError) as error:
            none_grad_judged(error, "one parameter's .grad")
            raise
        try:
            no_grads, no_grads_error = answer(inputs["no_grads"]), None
        except Exception as error:  # judged after the model with gradients, in the judge
            no_grads, no_grads_error = None, f"{type(error).__name__}: {error}"
    changed = [as_attribute(name) for (name, p), old in zip(named, before)
               if (p.grad is None) != (old is None) or (old is not None and not torch.equal(p.grad, old))]
    reset = [as_attribute(name) for (name, p), old in zip(named, before)
             if old is not None and old.any() and (p.grad is None or not p.grad.any())]
    return {"norm": got, "changed": changed, "reset": reset, "no_grads": no_grads, "no_grads_error": no_grads_error}


def judge(seen, expected, inputs):
    if seen["changed"] != []:
        name = seen["changed"][0] if isinstance(seen["changed"], list) and seen["changed"] else "a parameter"
        if seen.get("reset"):
            raise Mistake(f"your code reset `{name}.grad` (a zero_grad() or a reset of its own): reading the norm "
                          "must leave every .grad as it was, for the caller's step(). Leave the reset to the "
                          "caller.", "grad_changed")
        raise Mistake(f"your code changed `{name}.grad`: reading the norm must leave the gradients as they "
                      "were, so use out-of-place operations (p.grad ** 2, not p.grad.pow_(2)).", "grad_changed")
    got = seen["norm"]
    if isinstance(got, torch.Tensor) and got.numel() > 1:
        raise Mistake(f"your function returned a tensor of {got.numel()} numbers (one per parameter?): the global "
                      "norm is one number, the length of all the gradients laid end to end. Combine the "
                      "per-parameter norms the way the entries of one vector combine.", "not_a_number")
    value, want = number(got, "the gradient norm"), expected["norm"]
    if same_number(value, want):
        _no_grads_judged(seen)
        return
    if same_number(value, expected["sum_of_norms"]):
        raise Mistake("your value is the sum of the per-parameter norms. The global norm treats all gradients "
                      "as one long vector: the square root of the sum of every norm squared.", "sum_of_norms")
    if same_number(value, want**2):
        raise Mistake("your value is the squared norm: take the square root.", "squared_norm")
    with_grad = [(as_attribute(name), p.numel()) for name, p in inputs["model"].named_parameters() if p.grad is not None]
    for (name, size), norm in zip(with_grad, expected["per_parameter"]):
        if same_number(value, norm):
            entry = (f" (its one entry: or is your value the largest entry of all?)" if size == 1 else "")
            raise Mistake(f"your value is the norm of one parameter's gradient, `{name}.grad`, alone{entry}: the "
                          "global norm covers every .grad that is not None, as one long vector, one length of all "
                          "the gradients laid end to end.", "one_parameter")
    if same_number(value, expected["of_parameters"]):
        raise Mistake("your value is the norm of the parameters themselves, not of their gradients: the "
                      "gradient of p is p.grad.", "norm_of_parameters")
    raise Mistake(f"your gradient norm is {value:.6g}, PyTorch's is {want:.6g}. The global norm is the square "
                  "root of the sum of every squared entry of every .grad that is not None: one length of all "
                  "the gradients laid end to end (not a mean of squares, a sum of absolute values, or the "
                  "largest entry).", "wrong_value")


def _no_grads_judged(seen) -> None:
    """A model without any .grad has a gradient norm of 0, as the exercise says."""
    error = seen["no_grads_error"]
    if error is not None:
        error = str(error)[:160]
        if "non-empty" in error:
            why = "torch.cat and torch.stack refuse an empty list"
        elif "'int' object has no attribute" in error:
            why = "sum() of an empty list is the Python int 0, which has no tensor methods"
        elif "empty sequence" in error or "numel() == 0" in error:
            why = "the largest of no values does not exist"
        else:
            why = "your code assumed at least one .grad"
        raise Mistake("for a model whose parameters have no .grad at all (no backward() yet, or just after "
                      f"zero_grad()), your code raised {error}: the list of gradients is empty there, and {why}. "
                      "The norm of no gradients is 0: return 0.0 when the list is empty.", "no_grads_raised")
    value = number(seen["no_grads"], "the gradient norm of a model without any .grad")
    if value != 0.0:
        raise Mistake(f"for a model whose parameters have no .grad at all, your norm is {value:.6g}: with no "
                      "gradient, the norm is 0.", "no_grads_not_zero")


HINTS = [
    "The global norm is the length of all gradients laid end to end: the square root of the sum of "
    "every squared entry.",
    "Skip parameters whose .grad is None (a model may have none with a .grad: the norm is then 0), and "
    "only read .grad: no in-place operation on it.",
    "Per-parameter norms combine like the entries of one vector: the square root of the sum of "
    "their squares, not their sum.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
