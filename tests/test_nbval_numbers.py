"""nbval's comparison of stored and fresh outputs tolerates a moved last digit, nothing more."""
from types import SimpleNamespace

from nbformat.v4 import new_output

from nbval_numbers import outputs_agree, same_up_to_last_digits


def test_a_last_printed_digit_moved_by_rounding_agrees():
    assert same_up_to_last_digits("tensor([0.1235, 2.0000])", "tensor([0.1234, 2.0000])")
    assert same_up_to_last_digits("grad_norm 7.295688781515834", "grad_norm 7.2956887815158336")
    assert same_up_to_last_digits("1.2346e-05", "1.2345e-05")


def test_anything_else_still_differs():
    assert not same_up_to_last_digits("tensor([0.1236])", "tensor([0.1234])")  # two units
    assert not same_up_to_last_digits("3 nodes", "4 nodes")                     # integers exactly
    assert not same_up_to_last_digits("tensor([0.1234])", "tensor([0.1234], grad_fn=<MulBackward0>)")
    assert not same_up_to_last_digits("x.grad is None", "x.grad is 0.0")
    assert not same_up_to_last_digits("1.2346e-05", "1.2346e-04")


def test_outputs_agree_field_by_field():
    cell = SimpleNamespace(sanitize=lambda s: s)
    stored = [new_output("stream", name="stdout", text="loss 0.5001\n")]
    assert outputs_agree(cell, [new_output("stream", name="stdout", text="loss 0.5000\n")], stored, ())
    assert not outputs_agree(cell, [new_output("stream", name="stdout", text="loss 0.5101\n")], stored, ())
    assert not outputs_agree(cell, [new_output("stream", name="stderr", text="loss 0.5001\n")], stored, ())
    assert not outputs_agree(cell, stored * 2, stored, ())
