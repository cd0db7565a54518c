"""The warnings an answer gave while it was checked (course/checks/answer_warnings.py): each once,
capped in number and length, the same text on the self-check's side and the grader's, and a
kernel's field read without ever failing the grader."""
import json
import warnings

import pytest
import torch

from course.checks.answer_warnings import MAX_MESSAGE, MAX_SENT, MAX_WARNINGS, Warned
from course.exercises import backward


def caught(*given):
    with warnings.catch_warnings(record=True) as found:
        warnings.simplefilter("always")
        for category, message in given:
            warnings.warn(message, category)
    return found


def test_a_warning_given_on_every_call_is_kept_once_in_the_order_first_given():
    warned = Warned.caught(caught((UserWarning, "b"), (UserWarning, "a"), (UserWarning, "b"),
                                  (DeprecationWarning, "b")))
    assert warned.said == [("UserWarning", "b"), ("UserWarning", "a"), ("DeprecationWarning", "b")]
    assert warned.text() == "UserWarning: b\nUserWarning: a\nDeprecationWarning: b\n"
    assert Warned().text() == ""


def test_past_the_cap_the_first_warnings_are_kept_and_the_rest_said_to_exist():
    warned = Warned.caught(caught(*[(UserWarning, f"w{k}") for k in range(3 * MAX_WARNINGS)]))
    assert [message for _, message in warned.said] == [f"w{k}" for k in range(MAX_WARNINGS)]
    assert warned.more
    assert warned.lines()[-1] == f"(more warnings were given; the first {MAX_WARNINGS} are shown)"


def test_a_long_message_is_cut_saying_how_much_and_is_not_cut_again():
    warned = Warned.caught(caught((UserWarning, "x" * 10 * MAX_MESSAGE)))
    (_, message), = warned.said
    assert len(message) <= MAX_MESSAGE and message.endswith("characters cut]")
    again = Warned()
    again.read(warned.dumps())
    assert again == warned


def test_what_the_kernel_sends_reads_back_the_same_and_merges_across_trials():
    first = Warned.caught(caught((UserWarning, "a"), (RuntimeWarning, "b")))
    merged = Warned()
    for _ in range(3):  # one field per trial, the same warnings each time
        merged.read(first.dumps())
    assert merged == first and merged.unreadable == ""


def test_the_self_check_prints_what_the_grader_would_show(capfd):
    """One definition on both sides: the self-check's stderr is the text the graded cell shows."""
    def grads_with_intermediate(x):  # reads a non-leaf's .grad (tests/wrong_submissions: no_retain_grad)
        x = x.detach().clone().requires_grad_(True)
        h = torch.tanh(x)
        (h**2 * x).sum().backward()
        return x.grad, h.grad
    exercise = backward.EXERCISES["grads_with_intermediate"]
    torch.set_warn_always(True)  # PyTorch gives some warnings once per process
    try:
        _, warned = exercise.observe_warned(grads_with_intermediate, 5)
        capfd.readouterr()
        exercise.observe(grads_with_intermediate, 5)
    finally:
        torch.set_warn_always(False)
    assert warned.said and warned.said[0][0] == "UserWarning" and "not a leaf Tensor" in warned.said[0][1]
    assert capfd.readouterr().err == warned.text()


def field(said, more=False) -> str:
    return json.dumps({"said": said, "more": more})


@pytest.mark.parametrize("sent, why", [
    (None, "a NoneType where text was expected"),
    ({"said": []}, "a dict where text was expected"),
    ("x" * (MAX_SENT + 1), f"{MAX_SENT + 1} characters, more than the {MAX_SENT} it may hold"),
    ("[" * 30_000 + "]" * 30_000, "not JSON"),  # nested past Python's recursion limit
    ('{"said": [], "more": 1' + "0" * 5000 + "}", "not JSON"),  # an integer past Python's digit limit
    ("{", "not JSON"),
    ('[["UserWarning", "a"]]', '{"said": [...], "more": true or false}'),
    (json.dumps({"said": [], "more": "yes"}), '{"said": [...], "more": true or false}'),
    (field([["UserWarning", 1]]), "[category, message] pairs"),
    (field([["UserWarning", "a", "b"]]), "[category, message] pairs"),
    (field([["<b>Correct</b>", "a"]]), "[category, message] pairs"),  # not a warning class's name
    (field([["UserWarning", "a"]] * (MAX_WARNINGS + 1)), f"at most {MAX_WARNINGS}"),
])
def test_a_field_a_kernel_shaped_to_break_the_reader_is_said_unreadable(sent, why):
    warned = Warned()
    warned.read(sent)
    assert why in warned.unreadable and warned.said == []
    assert warned.text() == f"(the warnings sent back with this answer could not be read: {warned.unreadable})\n"


def test_what_a_kernel_sends_past_the_caps_is_cut_to_them():
    warned = Warned()
    warned.read(field([["UserWarning", "y" * (MAX_SENT // 2)]], more=True))
    warned.read(field([["UserWarning", f"w{k}"] for k in range(MAX_WARNINGS)]))
    assert warned.unreadable == "" and len(warned.said) == MAX_WARNINGS and warned.more
    assert len(warned.said[0][1]) <= MAX_MESSAGE
    assert len(warned.text()) < MAX_WARNINGS * (MAX_MESSAGE + 100)
