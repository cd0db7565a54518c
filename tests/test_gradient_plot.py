"""plot_gradient: the plotted derivative and tangent agree with calculus done by hand."""
import math

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402
import torch  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

from course.visuals.gradient_plot import derivative_on_grid, plot_gradient, slope_at  # noqa: E402


def f(x):
    return torch.log(x ** 2) * torch.sin(x) + 1 / x


def df(x):
    """d/dx [log(x^2) sin x + 1/x] = (2/x) sin x + log(x^2) cos x - 1/x^2, worked out by hand."""
    return 2 / x * np.sin(x) + np.log(x ** 2) * np.cos(x) - 1 / x ** 2


def line(ax, label):
    (found,) = [ln for ln in ax.get_lines() if ln.get_label() == label]
    return found.get_xdata(), found.get_ydata()


def test_derivative_on_grid_matches_hand_derivative():
    xs = torch.linspace(0.2, 6.0, 50, dtype=torch.float64)
    y, dy = derivative_on_grid(f, xs)
    assert torch.allclose(y, f(xs))
    assert np.allclose(dy.numpy(), df(xs.numpy()), rtol=1e-12, atol=1e-12)
    assert slope_at(f, 2.0) == pytest.approx((float(f(torch.tensor(2.0, dtype=torch.float64))), df(2.0)))


def test_plot_draws_f_its_derivative_and_the_tangent():
    fig = plot_gradient(f, 0.2, 6, at=2.0, points=120).figure  # a course Picture holds its Figure
    assert isinstance(fig, Figure) and fig.number not in plt.get_fignums()
    top, bottom = fig.axes
    xs, ys = line(top, "f(x)")
    assert len(xs) == 120 and xs[0] == pytest.approx(0.2) and xs[-1] == pytest.approx(6.0)
    assert np.allclose(ys, f(torch.tensor(xs)).numpy())
    _, dys = line(bottom, "f'(x) from autograd")
    assert np.allclose(dys, df(xs))
    tx, ty = line(top, "tangent at x = 2")
    slope = np.polyfit(tx, ty, 1)[0]
    assert slope == pytest.approx(df(2.0))
    assert np.interp(2.0, tx, ty) == pytest.approx(float(f(torch.tensor(2.0, dtype=torch.float64))))
    assert f"{df(2.0):.4g}" in top.get_title()


def test_named_function_and_default_point_in_the_middle():
    def square(x):
        return x ** 2

    fig = plot_gradient(square, -2, 4).figure
    top, bottom = fig.axes
    assert "slope at x = 1: 2" == top.get_title()
    assert line(top, "square(x)") and line(bottom, "square'(x) from autograd")


def test_pole_keeps_the_curve_in_view():
    fig = plot_gradient(f, -3, 3, at=1.0).figure
    low, high = fig.axes[0].get_ylim()
    assert high - low < 20  # not stretched to the huge values next to x = 0
    assert low < -1.7 and high > 1.7  # the curve's ordinary range, about -1.8 to 1.8, is visible


@pytest.mark.parametrize("bad, message", [
    (lambda x: x.sum(), "elementwise"),
    (lambda x: torch.tensor(x.detach().numpy() ** 2), "no grad_fn"),
    (lambda x: math.pi, "must return a tensor"),
])
def test_functions_autograd_cannot_follow_are_named(bad, message):
    with pytest.raises((TypeError, ValueError), match=message):
        plot_gradient(bad, 0, 1)


def test_empty_range_is_refused():
    with pytest.raises(ValueError, match="start must be less than end"):
        plot_gradient(f, 2, 1)
