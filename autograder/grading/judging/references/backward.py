"""Expected values for lesson 2, computed by autograd on the grader's own copies of the inputs."""
import torch

from course.checks.technique import oracle_leaf
from course.exercises.backward import HVP_FUNCTIONS, JACOBIAN_FUNCTIONS, SCALAR_FUNCTIONS, VECTOR_FUNCTIONS


def hand_written_f(x: torch.Tensor) -> torch.Tensor:
    """The function whose derivative the student derives by hand (it is printed in the lesson)."""
    return torch.sin(x**2) * torch.exp(-x)


def _grad(f, x):
    x0 = oracle_leaf(x)
    return torch.autograd.grad(f(x0), x0)[0]


def grad_via_backward(inputs):
    return {"grads": [_grad(f, inputs["x"]) for _, f in SCALAR_FUNCTIONS]}


def vjp(inputs):
    x, vjps, sum_grads = inputs["x"], [], []
    for (_, f), v in zip(VECTOR_FUNCTIONS, inputs["vs"]):
        x0 = oracle_leaf(x)
        y0 = f(x0)
        vjps.append(torch.autograd.grad(y0, x0, grad_outputs=v, retain_graph=True)[0])
        sum_grads.append(torch.autograd.grad(y0.sum(), x0)[0])
    return {"vjps": vjps, "sum_grads": sum_grads}


def grads_with_intermediate(inputs):
    """dy_dx and dy_dh, and what dy_dx is when one of x's two paths into y is lost: through h (h cut from
    x) or the direct one (h**2 multiplied by a tensor that does not require grad)."""
    x0 = oracle_leaf(inputs["x"])
    h0 = torch.tanh(x0)
    dy_dx, dy_dh = torch.autograd.grad((h0**2 * x0).sum(), [x0, h0], retain_graph=True)
    (direct,) = torch.autograd.grad((h0.detach() ** 2 * x0).sum(), x0)
    (through_h,) = torch.autograd.grad((h0**2 * x0.detach()).sum(), x0)
    return {"dy_dx": dy_dx, "dy_dh": dy_dh, "dy_dx_direct_only": direct, "dy_dx_through_h_only": through_h}


def two_losses(inputs):
    x0 = oracle_leaf(inputs["x"])
    h0 = torch.sin(x0) * x0
    (loss1,) = torch.autograd.grad(h0.sum(), x0, retain_graph=True)
    (loss2,) = torch.autograd.grad((h0**2).mean(), x0)
    return {"loss1": loss1, "loss2": loss2}


def jacobian_rows(inputs):
    x = inputs["x"].detach().clone()
    return {"jacobians": [torch.autograd.functional.jacobian(f, x) for _, f in JACOBIAN_FUNCTIONS]}


def hand_derivative(inputs):
    """f'(x), and what the likeliest slips by hand give instead, from the product's own parts
    (u = sin(x**2), v = exp(-x)): the inner factor 2x left out, the minus of exp(-x)' left out,
    and u' v' for the product rule."""
    x = inputs["x"]
    u, v = torch.sin(x.detach() ** 2), torch.exp(-x.detach())
    du, dv = _grad(lambda t: torch.sin(t**2).sum(), x), _grad(lambda t: torch.exp(-t).sum(), x)
    return {"derivative": _grad(lambda t: hand_written_f(t).sum(), inputs["x"]),
            "no_inner_factor": torch.cos(x.detach() ** 2) * v + u * dv,
            "exp_sign_dropped": du * v - u * dv,
            "derivatives_multiplied": du * dv}


def hvp(inputs):
    """H v from PyTorch's own hvp(), and what wrong answers may return: the first derivative, and H
    times a vector of ones (the second differentiation from g.sum(), v left out)."""
    x, hvps, grads, ones = inputs["x"].detach().clone(), [], [], []
    for (_, f), v in zip(HVP_FUNCTIONS, inputs["vs"]):
        hvps.append(torch.autograd.functional.hvp(f, x, v)[1])
        grads.append(_grad(f, x))
        ones.append(torch.autograd.functional.hvp(f, x, torch.ones_like(v))[1])
    return {"hvps": hvps, "grads": grads, "h_ones": ones}
