"""The diagnosis names the mistake that produced a wrong gradient, and stays quiet on a right one."""
import pytest
import torch

from course.checks.compare import close, tolerances
from course.checks.diagnose import diagnose_gradient
from course.checks.explain_error import explain_error

EXPECTED = torch.tensor([[1.0, -2.0], [0.5, 3.0]])


def test_a_correct_gradient_has_no_diagnosis():
    assert diagnose_gradient(EXPECTED, EXPECTED.clone() + 1e-7) is None


@pytest.mark.parametrize("actual, phrase", [
    (2 * EXPECTED, "2 times the expected gradient"),
    (3 * EXPECTED, "3 times"),
    (torch.zeros(2, 2), "all zeros"),
    (-EXPECTED, "wrong sign"),
    (EXPECTED.T.contiguous(), "transpose"),
    (EXPECTED.reshape(4), "Same number of elements"),
    (EXPECTED.sum(), "reduced to one number"),
    (EXPECTED.double(), "dtype torch.float64"),
    (EXPECTED.tolist(), "should be a tensor"),
    (None, "is None"),
    (EXPECTED + torch.tensor([[0.0, 0.0], [0.0, 1.0]]), "largest error is 1 at index (1, 1)"),
    (torch.full((2, 2), float("nan")), "NaN"),
])
def test_each_mistake_gets_its_name(actual, phrase):
    assert phrase in diagnose_gradient(EXPECTED, actual)


def test_stale_grad_is_recognised():
    stale = torch.ones(2, 2)
    assert "what .grad held before" in diagnose_gradient(EXPECTED, EXPECTED + stale, stale=stale)


def test_none_gradient_is_explained_by_the_tensor_flags():
    leaf = torch.ones(2, requires_grad=True)
    assert "Did you call backward()" in diagnose_gradient(EXPECTED, None, tensor=leaf)
    assert "retain_grad()" in diagnose_gradient(EXPECTED, None, tensor=leaf * 2)
    assert "does not require grad" in diagnose_gradient(EXPECTED, None, tensor=torch.ones(2))


def test_tolerances_follow_the_dtype():
    assert tolerances(torch.float64)[0] < tolerances(torch.float32)[0] < tolerances(torch.float16)[0]
    x = torch.tensor([1.0], dtype=torch.float64)
    assert close(x + 1e-9, x) and not close(x + 1e-5, x)
    assert close(x.float() + 1e-6, x.float())


def test_known_autograd_errors_are_explained_with_pytorchs_own_words():
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError) as error:
        y.backward()
    text = explain_error(error.value)
    assert text.startswith("RuntimeError: Trying to backward through the graph a second time")
    assert "retain_graph=True" in text.splitlines()[-1]
    assert explain_error(ValueError("odd")) == "ValueError: odd"
