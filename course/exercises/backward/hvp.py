"""`hvp(f, x, v)`: a Hessian-vector product, from a first derivative kept as a graph (`create_graph=True`)."""
from contextlib import ExitStack, contextmanager

import torch

from ...checks import random_inputs as rand
from ...checks.compare import close
from ...checks.diagnose import diagnose_gradient, shape_of
from ...checks.evaluation_points import WhereEvaluated, far_from_x, finite_difference, used_as_a_tensor
from ...checks.mistakes import Mistake, require
from ...checks.read_back import handed_back_within, returned_again
from ...checks.technique import (GRAD_RETURNS_A_TUPLE, forbidden, grad_not_left, inputs_kept, snapshot,
                                 watching_backward, weights_kept)
from ...exercise import Exercise


# Scalar functions with Hessians that are not zero, diagonal for the first, full for the others.
HVP_FUNCTIONS = [
    ("sum of sin(x) * x**2", lambda t: (torch.sin(t) * t**2).sum()),
    ("log-sum-exp", lambda t: torch.logsumexp(t, 0)),
    ("(sum of x**2)**2", lambda t: (t**2).sum() ** 2),
]


NO_SHORTCUT_HVP = ("build H v yourself: differentiate twice, the first time with create_graph=True, not with "
                   "PyTorch's {}() (torch.autograd.functional and torch.func are off limits here).")


# The second differentiation started from g itself: PyTorch's message is the same for both calls.
UNWEIGHTED_SECOND = ("your second differentiation started from the first derivative g, a tensor of several elements, "
                     "with no weights: {call} needs a scalar output or {argument}. The weights are what make the "
                     "result H v: differentiating g.sum() instead would give H times a vector of ones.")


NO_CREATE_GRAPH = ("your second differentiation found no graph: the first derivative was computed without "
                   "create_graph=True, so it is a plain tensor with no history. Pass create_graph=True to the "
                   "first torch.autograd.grad (or backward()) call.")


CUT_FIRST_DERIVATIVE = ("your second differentiation found no graph, although the first one kept it "
                        "(create_graph=True): the first derivative g was cut out of it before the second "
                        "(a detach(), .data, or a step under no_grad()). Compute H v from g itself.")


def _created_graph(ran: dict) -> bool:
    """Whether a differentiation the answer made asked autograd to record itself."""
    return any(call.get("create_graph") for call in ran["grad"] + ran["backward"])


def _raised_in(error: BaseException) -> str | None:
    """"backward" or "grad": which of torch.autograd's two entry points raised ``error`` (the innermost)."""
    found, tb = None, error.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code.co_name in ("backward", "grad") and code.co_filename.endswith(("autograd/__init__.py",
                                                                                 "autograd\\__init__.py")):
            found = code.co_name
        tb = tb.tb_next
    return found


def inputs(rng):
    """One x per function, float32 and float64 both in every trial: of 2 to 5 elements for the first two, and
    of one element for the last (H is then 1 x 1, and H v has the shape (1,), which nothing may squeeze)."""
    first = rand.float_dtype(rng)
    other = torch.float64 if first == torch.float32 else torch.float32
    xs = [rand.tensor(rng, (rand.integer(rng, 2, 5),), first), rand.tensor(rng, (rand.integer(rng, 2, 5),), other),
          rand.tensor(rng, (1,), first)]
    return {"xs": xs, "vs": [rand.tensor(rng, x.shape, x.dtype) for x in xs]}


def call(answer, inputs):
    seen, calls, differentiations, elsewhere, far, zeroed = [], [], [], [], [], []
    for (_, f), x, v in zip(HVP_FUNCTIONS, inputs["xs"], inputs["vs"]):
        before = snapshot(x, v)
        f = watched = WhereEvaluated(f, x)
        with ExitStack() as stack:
            for owner, name in [(torch.autograd.functional, name) for name in
                                ("hvp", "vhp", "hessian", "jacobian", "vjp", "jvp")] + \
                    [(torch.func, name) for name in ("hessian", "jacrev", "jacfwd", "grad", "grad_and_value", "vjp",
                                                     "jvp", "linearize") if hasattr(torch.func, name)]:
                stack.enter_context(forbidden(owner, name, NO_SHORTCUT_HVP.format(name), "shortcut_used"))
            watch, ran = watching_backward()
            stack.enter_context(watch)
            zeroing = stack.enter_context(_gradient_zeroing_watched())
            try:
                seen.append(answer(f, x, v))
            except RuntimeError as error:
                second = len(ran["backward"]) + len(ran["grad"]) >= 2
                why = not second and "does not have a grad_fn" in str(error) and \
                    watched.no_graph(x, "your first differentiation", "differentiate with respect to that copy")
                if why:
                    raise Mistake(why, "f_not_on_copy") from None
                if second and "does not require grad and does not have a grad_fn" in str(error):
                    if _created_graph(ran):
                        raise Mistake(CUT_FIRST_DERIVATIVE, "first_derivative_cut") from None
                    raise Mistake(NO_CREATE_GRAPH, "no_create_graph") from None
                if second and "implicitly created only for scalar outputs" in str(error):
                    call, argument = (("backward()", "gradient=") if _raised_in(error) == "backward" else
                                      ("torch.autograd.grad()", "grad_outputs="))
                    raise Mistake(UNWEIGHTED_SECOND.format(call=call, argument=argument), "v_ignored") from None
                raise
            except (AttributeError, TypeError) as error:
                if (misused := used_as_a_tensor(error)) is not None:
                    raise misused from None
                if ran["grad"] and ("converted to an index" in str(error) or "sequence" in str(error) or
                                    "'tuple' object" in str(error)):
                    raise Mistake(f"your code raised TypeError: {error}. {GRAD_RETURNS_A_TUPLE} (A tuple times a "
                                  "tensor is not a product of gradients.)", "grad_tuple") from None
                raise
        weights_kept(before[1], v)
        inputs_kept(before, [x, v], ["x", "v"])
        grad_not_left([x, v], ["x", "v"])
        calls.append(len(ran["backward"]))
        differentiations.append(len(ran["backward"]) + len(ran["grad"]))
        elsewhere.append(watched.elsewhere)
        far.append(watched.far)
        zeroed.append(bool(zeroing))
    return {"hvps": seen, "backward_calls": calls, "differentiations": differentiations,
            "evaluated_elsewhere": elsewhere, "evaluated_far": far, "zeroed_a_gradient_with_graph": zeroed,
            "returned_again": returned_again(seen)}


_TENSOR_ZERO = torch._C.TensorBase.zero_


@contextmanager
def _gradient_zeroing_watched():
    """Notes a zero_() of a tensor that has a history: .grad after backward(create_graph=True) is one, and
    zeroing it in place zeroes the first derivative g that the answer holds as that same tensor.

    A method patched for the duration, not a TorchFunctionMode: a mode would hand torch.autograd.grad's
    call back through the counting wrapper, and every differentiation would count twice.
    """
    seen = []

    def zero_(t):
        if t.grad_fn is not None:
            seen.append(True)
        return _TENSOR_ZERO(t)

    torch.Tensor.zero_ = zero_
    try:
        yield seen
    finally:
        del torch.Tensor.zero_


HVP_HOW = ("H v differentiates the first derivative once more, through the graph create_graph=True keeps: "
           "evaluate f at x only.")


def _v_applied_after(seen, expected, inputs) -> None:
    """(H times ones) * v for every f, H v for none: v multiplied the result of differentiating g.sum()
    instead of weighting g inside it. Judged over all functions, since for log-sum-exp H times ones is 0,
    whatever v multiplies."""
    pairs = [(got, ones * v, want) for got, ones, v, want in zip(seen["hvps"], expected["h_ones"], inputs["vs"],
                                                                 expected["hvps"], strict=True)]
    if all(isinstance(got, torch.Tensor) and got.shape == after.shape and got.dtype == after.dtype and
           close(got, after) for got, after, _ in pairs) and not all(close(after, want) for _, after, want in pairs):
        raise Mistake("your result is H times a vector of ones, multiplied by v afterwards: v was applied after the "
                      "second differentiation instead of inside it. H v differentiates (g * v).sum(): weight the "
                      "first derivative g by v, then differentiate.", "v_after")


def judge(seen, expected, inputs):
    handed_back_within("hvp", [f"f = {d}" for d, _ in HVP_FUNCTIONS], seen.get("returned_again"))
    finite_difference(seen, "H v from gradients at nearby points", HVP_HOW)
    _v_applied_after(seen, expected, inputs)
    for i, ((description, _), x, got, want, grad, ones, v) in enumerate(zip(
            HVP_FUNCTIONS, inputs["xs"], seen["hvps"], expected["hvps"], expected["grads"], expected["h_ones"], inputs["vs"],
            strict=True)):
        comparable = isinstance(got, torch.Tensor) and got.shape == want.shape and got.dtype == want.dtype
        if comparable and close(got, grad) and not close(want, grad):
            raise Mistake(f"for f = {description}, your result is the gradient of f, the first derivative: "
                          "H v differentiates (gradient · v) once more, through the graph that "
                          "create_graph=True keeps.", "first_derivative")
        if comparable and close(got, grad * v) and not close(want, grad * v):
            raise Mistake(f"for f = {description}, your result is the first derivative g times v, element by "
                          "element: the second differentiation is missing. H v differentiates (g * v).sum() "
                          "once more with respect to x, through the graph that create_graph=True keeps.",
                          "second_differentiation_missing")
        if comparable and close(got, ones) and not close(want, ones):
            raise Mistake(f"for f = {description}, your result is H times a vector of ones, as from differentiating "
                          "g.sum(): v was left out. H v weights the first derivative g by v before the second "
                          "differentiation.", "v_ignored")
        problem = diagnose_gradient(want, got, f"H v for f = {description}, at {shape_of(x)},", stale=grad)
        _hvp_reset(description, problem, seen["zeroed_a_gradient_with_graph"][i])
        far_from_x(seen, i, problem, HVP_HOW)
        require(problem)
        times = seen["differentiations"][i]
        if times > 2:
            raise Mistake(f"for f = {description}, H v is right, but your code differentiated {times} times, as "
                          "building H row by row (a row per element of the first derivative g) does. The exercise "
                          "asks for H v without H, from two differentiations: g with create_graph=True, then the "
                          "gradient of the scalar g · v.", "hessian_built")


def _hvp_reset(description: str, problem, zeroed: bool) -> None:
    """A .grad reset between the two differentiations goes wrong in its own ways when g is that .grad."""
    kind = getattr(problem, "kind", None)
    if kind == "stale_grad":
        raise Mistake(f"H v for f = {description} equals the expected H v plus the first derivative g: the "
                      "second backward() added into the .grad that still held g. Set x.grad = None between "
                      "the two (x.grad.zero_() would zero g as well: g is that very .grad tensor), or take "
                      "g from torch.autograd.grad, which returns it instead of adding into .grad.", "stale_grad")
    if kind == "all_zeros" and zeroed:
        raise Mistake(f"H v for f = {description} is all zeros: your code called zero_() on .grad after "
                      "backward(create_graph=True), and g is that same tensor, so g became zeros too and "
                      "g · v was 0 before the second differentiation. Set x.grad = None instead, which leaves "
                      "g as it is, or take g from torch.autograd.grad.", "grad_zeroed_with_g")


HINTS = [
    "H v is the gradient of a scalar: the dot product of the first derivative g with v.",
    "Differentiating g again needs g to have a graph of its own: the first differentiation has to "
    "record one, which it does only when asked (create_graph=...).",
    "If the second differentiation says a tensor does not require grad, look at what the first one was "
    "asked to record. Both differentiations are with respect to the same tensor.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
