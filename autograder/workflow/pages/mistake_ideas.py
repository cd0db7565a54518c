"""Which idea a diagnosed mistake shows, and where the lessons teach it: the class report groups by this.

The grader records a ``kind`` for every wrong answer (``course/checks/mistakes.py`` and the exercise
modules). ``IDEAS`` is the one table from kinds to ideas; each idea names the lesson section that
teaches it, as the section is titled today. When a lesson's sections move, change ``where`` here
and nothing else. A kind not listed shows in the report under its own name, so a new kind is seen
(and can be added here) rather than lost.

A kind not listed here is filed under the section of the lesson that holds its exercise
(``exercise_sections``), which is where that exercise's idea is taught.

A function that raised has the error's type as its kind (``RuntimeError``), which says little: its
message says which idea it is, so ``RAISED`` reads autograd's own messages (``course/checks/
explain_error.py`` explains the same ones to the student) before the type is taken as the idea.
"""
import re
from typing import NamedTuple


class Idea(NamedTuple):
    idea: str
    where: str  # the lesson section(s) that teach it
    kinds: tuple[str, ...]


IDEAS = (
    Idea("Recording starts with requires_grad; leaves and results", "01_graph §1-2, §5, §7, §9",
         ("not_leaf", "not_recorded", "graph_recorded", "nodes_not_names")),
    Idea("Walking next_functions: each leaf's AccumulateGrad ends it, a constant is (None, 0), a shared node "
         "is one node", "01_graph §3, §6",
         ("past_accumulate_grad", "missing_pair", "stepped_on_none", "stopped_early", "stops_before_leaf",
          "counted_per_path", "deduped_by_name", "skipped_accumulate_grad", "course_helper_used")),
    Idea(".grad is None until backward() reaches a leaf that requires grad", "02_backward §1, §8, 04_zero_grad §1",
         ("grad_none", "grad_none_no_backward", "grad_none_no_requires_grad", "grad_none_not_leaf",
          "grad_none_not_reached", "grad_none_not_skipped", "grad_not_none", "grad_created", "f_not_on_copy",
          "zeroed_none", "retained_wrong_tensor", "retained_after_backward")),
    Idea(".grad adds up in place: a .clone() keeps a value, None resets", "02_backward §3",
         ("grad_shares_memory", "02_backward:grad_aliased")),
    Idea("gradient= is a vector-Jacobian product; backward() starts from a scalar", "02_backward §2, §7",
         ("gradient_arg_unused", "squared_norm", "one_sided", "v_ignored")),
    Idea("The graph is freed after backward(): retain_graph, one backward per graph", "02_backward §4, §6",
         ("several_backward_calls", "backward_count", "forward_repeated", "called_backward")),
    Idea("torch.autograd.grad, the chain rule and create_graph", "02_backward §8-11",
         ("no_create_graph", "first_derivative", "autograd_used", "not_row_by_row", "chain_rule", "inner_factor",
          "exp_sign", "product_rule", "dy_dh", "hessian_built", "shortcut_used",
          "finite_difference", "rows_aliased")),
    Idea("Turning autograd off: no_grad, set_grad_enabled, eval(), detach()", "03_no_grad §1-2, §5-7",
         ("grad_mode_left_off", "mode_not_restored", "cut_off_graph", "nothing_detached", "dropout_active",
          "left_autograd", "recorded_then_detached")),
    Idea("From tensors to NumPy and Python numbers", "03_no_grad §8",
         ("not_an_array", "copy_of_x", "loss_not_float", "not_a_number", "not_an_int", "math_on_tensor",
          "not_a_tensor", "not_a_pair", "not_a_model")),
    Idea("In-place updates, the version counter, inputs left unchanged", "03_no_grad §9",
         ("inplace_saved", "rebound_not_in_place", "data_bypass", "params_replaced", "input_changed",
          "grad_left_on_input")),
    Idea("Freezing parameters", "03_no_grad §3, §10-11", ("all_frozen", "not_frozen", "last_frozen",
                                                          "plain_requires_grad", "freeze_all_but_output",
                                                          "freeze_all_but_last")),
    Idea(".grad adds up: zero it, and where zero_grad() goes", "04_zero_grad §2-4, §6",
         ("grad_accumulated", "never_zeroed", "grad_not_zero", "grad_not_reset", "reset_in_loop", "stale_grad",
          "grad_reset_at_end", "grad_reset", "not_divided", "not_full_batch")),
    Idea("A complete training loop", "04_zero_grad §8", ("no_step", "params_changed", "uphill")),
    Idea("Hooks: a gradient before it lands in .grad", "04_zero_grad §9",
         ("no_handles", "not_clipped", "hook_in_place", "grad_replaced", "grad_aliased", "grad_changed")),
    Idea("The value itself: sign, shape, dtype, a missing return", "every lesson",
         ("wrong_sign", "wrong_shape", "wrong_dtype", "wrong_value", "wrong_answer", "all_zeros", "pair_swapped",
          "none_returned", "forbidden_shortcut", "overflow", "loop_over_0d", "f_on_pieces", "tensor_of_rows",
          "gradient_dtype")),
    Idea("Running the exercise: the function defined under its own name, returning what can be checked",
         "every lesson", ("not_defined", "unreadable")),
    Idea("Only floating-point tensors can require grad", "01_graph §2", ("integer_requires_grad",)),
    Idea("An error raised in the student's own code (its message says which)", "every lesson",
         ("RuntimeError", "NameError", "TypeError", "AttributeError", "IndexError", "KeyError", "ValueError", "SyntaxError",
          "ZeroDivisionError", "RecursionError", "raised")),
)

# autograd's messages (PyTorch 2.x) -> the kind whose idea they show, for a function that raised
RAISED = (
    (re.compile(r"floating point and complex dtype can require gradients"), "integer_requires_grad"),
    (re.compile(r"does not require grad and does not have a grad_fn"), "grad_none_no_requires_grad"),
    (re.compile(r"backward through the graph a second time"), "several_backward_calls"),
    (re.compile(r"grad can be implicitly created only for (real )?scalar outputs"), "one_sided"),
    (re.compile(r"leaf Variable that requires grad is being used in an in-place operation"), "inplace_saved"),
    (re.compile(r"modified by an inplace operation"), "inplace_saved"),
    (re.compile(r"Can't call numpy\(\) on Tensor that requires grad"), "not_an_array"),
    (re.compile(r"a Tensor with \d+ elements cannot be converted to Scalar"), "loss_not_float"),
    (re.compile(r"One of the differentiated Tensors appears to not have been used in the graph"), "cut_off_graph"),
)

_BY_KIND = {kind: idea for idea in IDEAS for kind in idea.kinds}


def exercise_sections(root: str, lessons: list[str]) -> dict[tuple[str, str], str]:
    """(lesson, exercise) -> "lesson §N": the section each exercise sits in, read from the source
    notebook's "## N. Title" headings, where a kind not listed in IDEAS is filed (it is taught there)."""
    import json
    import os

    from course.grade_ids import exercise_of_test
    found = {}
    for lesson in lessons:
        path = os.path.join(root, "source", lesson, f"{lesson}.ipynb")
        if not os.path.exists(path):
            continue
        with open(path, encoding="utf-8") as handle:
            cells = json.load(handle).get("cells", [])
        section = ""
        for cell in cells:
            text = "".join(cell.get("source", "")) if isinstance(cell.get("source"), list) else cell.get("source", "")
            heading = re.search(r"^##\s+(\d+)\.\s", text, re.M) if cell.get("cell_type") == "markdown" else None
            if heading:
                section = f"{lesson} §{heading.group(1)}"
            grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
            if grade_id and section:
                found[(lesson, grade_id)] = section
                found[(lesson, exercise_of_test(grade_id) or grade_id)] = section
    return found


def idea_of(kind: str, message: str = "", lesson: str = "") -> Idea:
    """The idea a kind of mistake shows in ``lesson`` (a kind two lessons share, such as grad_aliased,
    is listed as "lesson:kind" under the idea its lesson teaches; an error's message first, for a
    function that raised); an unlisted kind is an idea of its own, named by the kind."""
    said = next((said for pattern, said in RAISED if pattern.search(message or "")), None)
    if said and (kind not in _BY_KIND or _BY_KIND[kind].kinds == _BY_KIND["raised"].kinds):
        return _BY_KIND[said]
    return (_BY_KIND.get(f"{lesson}:{kind}") or _BY_KIND.get(kind)
            or Idea(f"other: {kind}", "not in mistake_ideas.IDEAS yet", (kind,)))
