"""The diagnosis names the mistake that produced a wrong gradient, and stays quiet on a right one."""
import pytest
import torch

from course.checks.compare import close, tolerances
from course.checks.diagnose import diagnose_aliased_rows, diagnose_gradient, diagnose_swapped
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
    said = diagnose_gradient(EXPECTED, EXPECTED + stale, stale=stale)
    assert "what .grad held before" in said
    # the reset lesson 2 teaches, on a tensor: zero_grad() (models and optimizers) comes in lesson 4
    assert "p.grad = None, or p.grad.zero_() when it is not None" in said and "zero_grad()" not in said


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


def test_a_none_gradient_says_whether_backward_ran():
    never = diagnose_gradient(EXPECTED, None, backward_calls=0)
    assert "backward() was never called" in never and "missing `return`" not in never
    assert never.kind == "grad_none_no_backward"
    assert "never reached the tensor" in diagnose_gradient(EXPECTED, None, backward_calls=2)
    assert "a missing `return`" in diagnose_gradient(EXPECTED, None)  # nothing counted: the old words


@pytest.mark.parametrize("actual, phrase", [
    ([torch.ones(2), torch.ones(2)], "a list of 2 tensors of shape (2,): torch.stack() makes one tensor"),
    ([1.0, 2.0], "a list of 2 Python numbers: keep the result as a tensor"),
    ((torch.ones(2), 3.0), "a tuple of 2 items of mixed types"),
    ([], "an empty list"),
    ("text", "it is a string"),
    (3, "it is a Python int."),
    (2.5, "a Python float (.item() or float() turns a tensor into one)"),
    ([[1.0]], "a list of 1 item, the first a list of 1 Python numbers"),
])
def test_what_came_back_is_described_in_a_learners_words(actual, phrase):
    assert phrase in diagnose_gradient(EXPECTED, actual)


def test_no_python_class_name_reaches_the_learner():
    import numpy as np
    for value in (np.ones(2), 3, True, {"a": 1}, (i for i in ())):
        message = diagnose_gradient(EXPECTED, value)
        assert not any(f"a {name}" in message for name in ("ndarray", "int ", "NoneType", "generator object"))


def test_a_swapped_pair_is_named():
    a, b = torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0])
    message = diagnose_swapped((a, b), (b, a), ("dy_dx", "dy_dh"))
    assert message.startswith("your pair is in the wrong order") and message.kind == "pair_swapped"
    assert diagnose_swapped((a, b), (a, b), ("dy_dx", "dy_dh")) is None
    assert diagnose_swapped((a, a), (a, a), ("p", "q")) is None  # equal halves: order cannot matter
    assert diagnose_swapped((a, b), "garbage", ("p", "q")) is None


def test_rows_that_alias_one_tensor_are_named():
    jacobian = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    aliased = jacobian[-1].expand(3, 2).clone()
    message = diagnose_aliased_rows(jacobian, aliased, "the Jacobian")
    assert "every row of the Jacobian is the same" in message and "alias one .grad" in message
    assert diagnose_aliased_rows(jacobian, jacobian.clone()) is None
    assert diagnose_aliased_rows(torch.ones(3, 2), torch.ones(3, 2)) is None  # rows really are equal


def test_every_diagnosis_starts_with_a_sentence_that_stands_alone():
    """nbgrader's Validate shows only the start: the first sentence must name the mistake."""
    for actual in (2 * EXPECTED, torch.zeros(2, 2), -EXPECTED, None, [1.0], EXPECTED.double()):
        first = diagnose_gradient(EXPECTED, actual, "dy_dx").split(". ")[0]
        assert first.startswith("dy_dx ") and len(first) > 25


def test_a_math_module_call_on_a_tensor_is_explained():
    import math
    with pytest.raises((TypeError, ValueError)) as error:
        math.sin(torch.ones(3))
    text = explain_error(error.value)
    assert "only one element tensors" in text.splitlines()[0]
    assert "torch.sin" in text.splitlines()[-1] and "no graph" in text


@pytest.mark.parametrize("update", [lambda p: 0.1 * p.grad, lambda p: p.grad * 0.1])
def test_a_none_grad_times_a_learning_rate_is_explained(update):
    p = torch.ones(2, requires_grad=True)  # no backward() yet: p.grad is None
    with pytest.raises(TypeError) as error:
        update(p)
    text = explain_error(error.value)
    assert "NoneType" in text.splitlines()[0]
    assert "it is None until backward() reaches the tensor" in text.splitlines()[-1]


def test_a_hook_on_a_tensor_that_does_not_require_grad_is_explained():
    with pytest.raises(RuntimeError) as error:
        torch.ones(2).register_hook(lambda grad: grad)
    text = explain_error(error.value)
    assert "cannot register a hook" in text.splitlines()[0]
    assert "register_hook needs a tensor that requires grad" in text.splitlines()[-1]


def test_numpy_of_a_bfloat16_tensor_is_explained():
    with pytest.raises(TypeError) as error:
        torch.ones(2, dtype=torch.bfloat16, requires_grad=True).detach().numpy()
    text = explain_error(error.value)
    assert "BFloat16" in text.splitlines()[0]
    assert "NumPy has no bfloat16" in text.splitlines()[-1]


def test_a_multiple_of_the_gradient_names_both_causes_it_can_have():
    """k times the gradient is .grad added up k times, or a sum where a mean belongs: both are said."""
    from course.checks.diagnose import diagnose_values
    want = torch.tensor([1.0, -2.0, 3.0])
    said = diagnose_values(want, 3 * want)
    assert said.kind == "grad_accumulated" and "3 backward() calls" in said and "a sum where a mean belongs" in said
    zeros = diagnose_values(want, torch.zeros(3))
    assert zeros.kind == "all_zeros" and zeros.startswith("the result is all zeros: no gradient reached it")
