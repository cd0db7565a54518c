"""A function next to the derivative autograd computes for it, with one tangent line.

Seeing f' as a curve, and the tangent's slope equal to its height at one point, is the bridge
between "the derivative" from calculus and the number autograd puts in `.grad`.
"""
import matplotlib.pyplot as plt
import numpy as np
import torch
from matplotlib.figure import Figure

from course.visuals.picture import PictureError, floats, pack, show, text

MAX_POINTS = 5000  # grid points one plot may have

# Okabe-Ito colours; line styles differ too, so the curves stay apart in greyscale.
F_STYLE = dict(color="#0072B2", linestyle="-", linewidth=2)
DF_STYLE = dict(color="#D55E00", linestyle="--", linewidth=2)
TANGENT_STYLE = dict(color="#000000", linestyle=":", linewidth=1.8)


def _values(f, x: torch.Tensor) -> torch.Tensor:
    y = f(x)
    if not isinstance(y, torch.Tensor):
        raise TypeError(f"f must return a tensor built with torch operations, got {type(y).__name__}")
    if y.shape != x.shape:
        raise ValueError(f"f must work elementwise: f(x) for x of shape {tuple(x.shape)} "
                         f"returned shape {tuple(y.shape)}")
    if y.grad_fn is None:
        raise ValueError("f(x) has no grad_fn: autograd cannot follow f. Use torch functions on x "
                         "(no .item(), .numpy(), .detach() or math.* on tensors).")
    return y


def derivative_on_grid(f, xs: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """f and f' at each point of `xs`, in one backward pass.

    Because f is elementwise, the gradient of sum(f(x)) at each x_i is f'(x_i).
    """
    x = xs.detach().to(torch.float64).requires_grad_(True)
    y = _values(f, x)
    (dy,) = torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=False)
    return y.detach(), dy


def slope_at(f, at: float) -> tuple[float, float]:
    """f(at) and f'(at) from autograd."""
    y, dy = derivative_on_grid(f, torch.tensor([float(at)]))
    return float(y[0]), float(dy[0])


def plot_gradient(f, start, end, at=None, points=200):
    """f with its tangent at `at` (default: the middle) above f' from autograd."""
    return show(describe_gradient(f, start, end, at, points))


def describe_gradient(f, start, end, at=None, points=200) -> dict:
    """What ``plot_gradient`` draws, as plain data: f and f' on the grid, and the tangent's point."""
    if not start < end:
        raise ValueError(f"start must be less than end, got start={start}, end={end}")
    at = (start + end) / 2 if at is None else float(at)
    xs = torch.linspace(float(start), float(end), int(points), dtype=torch.float64)
    y, dy = derivative_on_grid(f, xs)
    y0, slope = slope_at(f, at)
    name = getattr(f, "__name__", "f")
    name = "f" if name == "<lambda>" else name
    return {"kind": "gradient", "name": name, "point": pack([at, y0, slope]),  # packed: NaN is no JSON
            "xs": pack(xs.numpy()), "y": pack(y.numpy()), "dy": pack(dy.numpy())}


def _read(description: dict):
    """The description's name, tangent point and curves, checked."""
    name, point = text(description, "name"), floats(description, "point", 3)
    if len(point) != 3:
        raise PictureError("point must hold x, f(x) and f'(x)")
    at, y0, slope = (float(v) for v in point)
    xs, y, dy = (floats(description, key, MAX_POINTS) for key in ("xs", "y", "dy"))
    if not len(xs) == len(y) == len(dy):
        raise PictureError("xs, y and dy must hold as many values each")
    return name, at, y0, slope, xs, y, dy


def text_alternative(description: dict) -> str:
    """What ``draw_picture`` draws, in words: both curves with their range, the tangent's point and
    slope, and where f' crosses zero (where f turns)."""
    name, at, y0, slope, xs, y, dy = _read(description)
    if not len(xs):
        return f"{name} and its derivative, from autograd: no points to plot."
    return (f"{name} and its derivative, from autograd, for x from {xs[0]:.3g} to {xs[-1]:.3g}. "
            f"Top: {name}(x), {_range(y)}, with its tangent at x = {at:.3g}, where {name}(x) = {y0:.4g} "
            f"and the slope is {slope:.4g}. Bottom: {name}'(x) from autograd, {_range(dy)}; "
            f"at x = {at:.3g} it is {slope:.4g}, the tangent's slope. {_zeros(name, xs, dy)}")


def _range(values) -> str:
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return "with no finite value"
    low, high = float(finite.min()), float(finite.max())
    near = (high - low) * 1e-3  # what the plot cannot tell from zero
    return (f"between {_number(low, near)} and {_number(high, near)}"
            + ("" if finite.size == values.size else " where finite"))


def _number(value: float, near: float) -> str:
    return "0" if abs(value) <= near else f"{value:.3g}"


def _zeros(name: str, xs, dy, most: int = 5) -> str:
    """Where f' changes sign between grid points (to within a grid step), at most ``most`` of them."""
    sign = np.sign(dy)
    where = [float((xs[i] + xs[i + 1]) / 2) for i in range(len(xs) - 1)
             if np.isfinite(dy[i]) and np.isfinite(dy[i + 1]) and sign[i] * sign[i + 1] < 0]
    if not where:
        return f"{name}'(x) does not change sign here."
    step = float(xs[-1] - xs[0]) / max(len(xs) - 1, 1)
    shown = ", ".join(_number(x, step) for x in where[:most]) + (f" and {len(where) - most} more" if len(where) > most else "")
    return f"{name}'(x) crosses zero near x = {shown}."


def draw_picture(description: dict, dpi: float | None) -> Figure:
    """The figure of ``describe_gradient``'s data."""
    name, at, y0, slope, xs, y, dy = _read(description)
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 5.5), height_ratios=(3, 2), dpi=dpi)
    top.plot(xs, y, label=f"{name}(x)", **F_STYLE)
    top.plot(xs, y0 + slope * (xs - at), label=f"tangent at x = {at:.3g}", **TANGENT_STYLE)
    top.plot([at], [y0], "o", color="#000000", markersize=6)
    top.set_ylim(*_limits(y))  # the tangent may run far off; keep f in view
    top.set_ylabel(f"{name}(x)")
    top.legend(loc="best", fontsize=9)
    top.set_title(f"slope at x = {at:.3g}: {slope:.4g}", fontsize=10)

    bottom.plot(xs, dy, label=f"{name}'(x) from autograd", **DF_STYLE)
    bottom.plot([at], [slope], "s", color="#000000", markersize=6, label="tangent's slope")
    bottom.axhline(0, color="#999999", linewidth=0.8)
    bottom.set_ylim(*_limits(dy))
    bottom.set_xlabel("x")
    bottom.set_ylabel(f"{name}'(x)")
    bottom.legend(loc="best", fontsize=9)
    for ax in (top, bottom):
        ax.grid(True, alpha=0.3)
    fig.suptitle(f"{name} and its derivative, from autograd", fontsize=12)
    fig.tight_layout()
    return fig


def _limits(values) -> tuple[float, float]:
    """Axis range covering the finite values, so a pole (1/x at 0) does not flatten the rest."""
    finite = values[np.isfinite(values)]
    if finite.size == 0:
        return -1.0, 1.0
    low, high = float(finite.min()), float(finite.max())
    q_low, q_high = (float(q) for q in np.quantile(finite, [0.05, 0.95]))
    if high - low > 5 * (q_high - q_low):  # a few huge values near a pole would squash the rest
        low, high = q_low, q_high
    if high - low < 1e-12:
        low, high = low - 1, high + 1
    pad = 0.08 * (high - low)
    return low - pad, high + pad
