"""grads_with_intermediate: dy/dx and dy/dh, and dy/dx with either path of x into y lost."""
import torch

from course.checks.technique import oracle_leaf


def expected(inputs):
    """dy_dx and dy_dh, and what dy_dx is when one of x's two paths into y is lost: through h (h cut from
    x) or the direct one (h**2 multiplied by a tensor that does not require grad)."""
    x0 = oracle_leaf(inputs["x"])
    h0 = torch.tanh(x0)
    dy_dx, dy_dh = torch.autograd.grad((h0**2 * x0).sum(), [x0, h0], retain_graph=True)
    (direct,) = torch.autograd.grad((h0.detach() ** 2 * x0).sum(), x0)
    (through_h,) = torch.autograd.grad((h0**2 * x0.detach()).sum(), x0)
    return {"dy_dx": dy_dx, "dy_dh": dy_dh, "dy_dx_direct_only": direct, "dy_dx_through_h_only": through_h}
