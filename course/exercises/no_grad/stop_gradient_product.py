"""`stop_gradient_product(x)`: a product whose gradient flows through one factor only, the other detached."""
import torch

from ...checks import random_inputs as rand
from ...checks.compare import close, tolerances
from ...checks.diagnose import diagnose_gradient, diagnose_tensor
from ...checks.mistakes import Mistake, require
from ...checks.observation import flags_of
from ...checks.technique import inputs_kept, snapshot
from ...exercise import Exercise


def inputs(rng):
    """x; another x of the same shape and dtype, which a cache keyed on the shape meets in one call;
    and a 0-d x (elementwise means every shape, a single number too)."""
    shape, dtype = rand.shape(rng), rand.float_dtype(rng)
    return {"x": rand.tensor(rng, shape, dtype, requires_grad=True),
            "same_shape": rand.tensor(rng, shape, dtype, requires_grad=True),
            "scalar": rand.tensor(rng, (), dtype, requires_grad=True)}


def _stop_gradient_product_once(answer, x, catch: bool = True):
    before = snapshot(x)
    try:
        z = answer(x)
    except Exception as error:  # on another shape: judged once the main x has been judged
        if not catch:
            raise
        return {"raised": f"{type(error).__name__}: {error}"}
    inputs_kept(before, [x], ["x"])
    if x.grad is not None:
        raise Mistake("your function called backward() itself: x.grad now holds a gradient the caller did not ask "
                      "for, and backward() frees the graph that z's gradient needs. Return z as it is, and let the "
                      "caller (here, the check) run backward() through it.", "backward_called")
    dz_dx = None
    if isinstance(z, torch.Tensor) and z.requires_grad and z.is_floating_point():
        # What the lesson's backward on z would put in x.grad, without touching x.grad.
        (dz_dx,) = torch.autograd.grad(z, x, torch.ones_like(z), allow_unused=True)
    return {"z": z, "dz_dx": dz_dx, "raised": None}


def call(answer, inputs):
    return {**_stop_gradient_product_once(answer, inputs["x"], catch=False),
            "same_shape": _stop_gradient_product_once(answer, inputs["same_shape"]),
            "scalar": _stop_gradient_product_once(answer, inputs["scalar"])}


def _factor_kept(seen, expected, inputs) -> bool:
    """Whether z is wrong and is x times one factor that is the same for two different x: a factor
    that does not come from the call's own x (z0 / x0 == z1 / x1, compared without dividing)."""
    z0, again = seen["z"], seen["same_shape"]
    z1 = again.get("z") if isinstance(again, dict) else None
    x0, x1 = inputs["x"].detach().double(), inputs["same_shape"].detach().double()
    if not all(isinstance(z, torch.Tensor) and z.shape == x0.shape and z.is_floating_point() for z in (z0, z1)):
        return False
    if z0.dtype == expected["z"].dtype and close(z0, expected["z"]):
        return False
    rtol, atol = tolerances(inputs["x"].dtype)
    return bool(torch.allclose(z0.detach().double() * x1, z1.detach().double() * x0, rtol=10 * rtol, atol=10 * atol))


def _judged_once(seen, expected):
    z, dz_dx = seen["z"], seen["dz_dx"]
    want = expected["z"]
    if isinstance(z, torch.Tensor) and z.shape != want.shape and z.numel() == want.numel():
        raise Mistake(f"z has shape {tuple(z.shape)}, but x has shape {tuple(want.shape)}: an elementwise product "
                      "keeps x's shape. Was x flattened or reshaped on the way? Multiply x itself.", "wrong_shape")
    require(diagnose_tensor(want, z, "z"))
    if not close(z, expected["z"]):
        raise Mistake("z should equal x * x**2 = x**3 in value: detach() changes which way gradients flow, "
                      "never the values.", "wrong_value")
    if flags_of(z).grad_fn is None:
        raise Mistake("z has no grad_fn, so no gradient can reach x: the whole product was cut off the graph. "
                      "Detach only the x**2 factor and multiply it by x itself.", "cut_off_graph")
    if dz_dx is None:
        raise Mistake("z does not depend on the x you were given: it was built from a copy (a new leaf, cut "
                      "off from x). Compute z from x itself.", "copy_of_x")
    if diagnose_tensor(expected["dz_dx"], dz_dx) is None:
        if close(dz_dx, expected["through_both"]):
            raise Mistake("dz/dx is 3x**2, the derivative of x**3: nothing was detached, so the gradient "
                          "flowed through both factors. Detach the x**2 factor (detach() returns a new tensor and "
                          "leaves its input as it is: use what it returns).", "nothing_detached")
        if close(dz_dx, expected["through_square"]):
            raise Mistake("dz/dx is 2x**2: the gradient flowed through x**2 but not through the plain x "
                          "factor. You detached the wrong factor: keep x, detach x**2.", "wrong_factor_detached")
        if close(dz_dx, torch.ones_like(dz_dx)):
            raise Mistake("dz/dx is 1 everywhere: z is x plus a detached correction (the straight-through trick), "
                          "so the gradient flows through the plain x alone. The exercise wants x times a detached "
                          "x**2, whose gradient is x**2: z = x * (x**2 detached).", "straight_through")
    require(diagnose_gradient(expected["dz_dx"], dz_dx, "dz/dx"))


def judge(seen, expected, inputs):
    if _factor_kept(seen, expected, inputs):
        raise Mistake("z is x times a factor that is the same for two different x of the same shape, so that "
                      "factor does not come from the x of the call: your function keeps something from one call "
                      "to the next (a cache keyed on the shape?), and reused an earlier call's x**2. Compute the "
                      "detached factor from the x of this call.", "keeps_state")
    _judged_once(seen, expected)
    again, want = seen["same_shape"], expected["same_shape"]
    if not isinstance(again, dict) or not isinstance(seen["scalar"], dict):
        raise Mistake("the check could not read what your function did: return what the exercise asks for.",
                      "unreadable")
    if again.get("raised") is not None or not all(
            isinstance(again.get(k), torch.Tensor) and close(again[k], want[k]) for k in ("z", "dz_dx")):
        raise Mistake("z is right for one x, but wrong for the next x of the same shape and dtype, called just "
                      "after it: your function keeps something from one call to the next (a cache keyed on the "
                      "shape?), and reused an earlier call's x**2. Compute the detached factor from the x of "
                      "this call.", "keeps_state")
    scalar = seen["scalar"]
    shape = tuple(inputs["x"].shape)
    if scalar.get("raised") is not None:
        raise Mistake(f"for an x of shape {shape} your function worked, but for a 0-d x (a single number, "
                      f"shape ()) it raised {str(scalar['raised'])[:160]}. Elementwise operations (*, **, "
                      "detach()) work on a tensor of any shape: use them on x as a whole, with no loop over its "
                      "elements or index into it.", "wrong_shape")
    try:
        _judged_once(scalar, expected["scalar"])
    except Mistake as mistake:
        raise Mistake(f"for an x of shape {shape} z was right, but for a 0-d x (a single number, shape ()): "
                      f"{mistake} Elementwise operations work on a tensor of any shape: use them on x as a whole.",
                      mistake.kind) from None


HINTS = [
    "detach() returns the same values with no history: to autograd, a detached tensor is a constant.",
    "Only one of the two factors should be a constant; the other must stay the x you were given.",
    "With x**2 held constant, d(x * c)/dx = c = x**2: check that your z gives that, not 3x**2 or 2x**2.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
