"""Where the course explains each autograd error a student's own cell may raise: one table for all lessons.

A lesson points to its own section when it explains the error; otherwise to the first lesson that
does, where the idea is taught (for most errors an earlier lesson, read already). So a new
section, or a new lesson, is written here once and every lesson's pointers follow.
"""
LESSONS = ("01_graph", "02_backward", "03_no_grad", "04_zero_grad")

SECTIONS = {
    "01_graph": {1: "Recording starts with requires_grad", 2: "Leaves and results", 3: "Walking the graph",
                 5: "A function with a recorded graph", 7: "What requires grad: detach() and nn.Parameter",
                 9: "A leaf from any data"},
    "02_backward": {1: "backward() fills .grad", 2: "backward() starts from a scalar",
                    3: ".grad adds up, in place", 4: "The graph is freed after backward()",
                    7: "gradient= is a vector-Jacobian product", 8: "Only leaves keep .grad: retain_grad()",
                    9: "torch.autograd.grad: gradients without .grad",
                    11: "Gradients of gradients: create_graph=True"},
    "03_no_grad": {1: "torch.no_grad(): nothing is recorded", 5: "Updating parameters by hand: no_grad() at work",
                   6: "set_grad_enabled() and inference_mode()",
                   8: "Getting numbers out: NumPy, .item(), and a stop-gradient at work",
                   9: "In-place changes and the version counter"},
    "04_zero_grad": {1: ".grad starts as None, then adds up", 2: "Resetting .grad: zero_(), None, and zero_grad()",
                     3: "Where zero_grad() goes in a training loop",
                     5: "None and zeros are not the same to an optimizer",
                     7: "Reading .grad: the global gradient norm",
                     9: "Hooks: seeing a gradient before it lands in .grad"},
}

# error key (course.checks.explain_error.KNOWN_ERRORS) -> {lesson: the section that explains it}
EXPLAINED_IN = {
    "no_graph": {"01_graph": 1, "02_backward": 1, "03_no_grad": 1},
    "integer_requires_grad": {"01_graph": 2},
    "math_on_tensor": {"01_graph": 5},
    "tensor_not_node": {"01_graph": 3},
    "none_node": {"01_graph": 3},
    "node_not_tensor": {"01_graph": 3},
    "pair_not_node": {"01_graph": 3},
    "node_in_arithmetic": {"01_graph": 3},
    "numpy_requires_grad": {"01_graph": 5, "03_no_grad": 8},
    "number_of_requires_grad": {"01_graph": 5},
    "non_leaf_grad": {"01_graph": 9, "02_backward": 8},
    "copy_construct": {"01_graph": 9},
    "flag_of_result": {"01_graph": 7},
    "non_scalar": {"02_backward": 2},
    "gradient_shape": {"02_backward": 7},
    "grad_none": {"02_backward": 1, "03_no_grad": 5, "04_zero_grad": 1},
    "freed_graph": {"02_backward": 4},
    "retain_grad_no_grad": {"02_backward": 8},
    "unused_input": {"02_backward": 9},
    "leaf_in_place": {"03_no_grad": 5},
    "parameter_assigned": {"03_no_grad": 5},
    "method_not_called": {"04_zero_grad": 2},
    "context_not_called": {"03_no_grad": 1},
    "inference_saved": {"03_no_grad": 6},
    "inference_in_place": {"03_no_grad": 6},
    "numpy_bfloat16": {"03_no_grad": 8},
    "saved_modified": {"03_no_grad": 9},
    "grad_assigned": {"04_zero_grad": 2},
    "hook_no_grad": {"04_zero_grad": 9},
    "item_of_many": {"03_no_grad": 8},
    "number_backward": {"04_zero_grad": 3},
    "post_hook_returned": {"04_zero_grad": 9},
    "post_hook_non_leaf": {"04_zero_grad": 9},
    "clip_without_grads": {"04_zero_grad": 7},
    "optimize_non_leaf": {"03_no_grad": 5, "04_zero_grad": 2},
    "empty_parameters": {"03_no_grad": 5, "04_zero_grad": 2},
    "hook_changed_size": {"04_zero_grad": 9},
    "create_graph_cycle": {"02_backward": 11},
}


def _where(key: str, lesson: str) -> str:
    explained = EXPLAINED_IN[key]
    if lesson in explained:
        return f"section {explained[lesson]}, {SECTIONS[lesson][explained[lesson]]}"
    other = next(other for other in LESSONS if other in explained)
    return f"lesson {LESSONS.index(other) + 1}, section {explained[other]}"


def sections_for(lesson: str) -> dict[str, str]:
    """Error key -> "section 4, The graph is freed after backward()" or "lesson 2, section 4", for ``lesson``."""
    return {key: _where(key, lesson) for key in EXPLAINED_IN}
