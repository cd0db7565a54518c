"""Turn PyTorch's own autograd errors into a sentence about what the code did wrong.

The original message is always kept: students should learn to read PyTorch's words too. The
checks use ``explain_error`` on what an answer raised; a lesson that calls
``explain_errors_in_cells(sections)`` (its exercises module does, when the lesson imports it) gets
the same line under any of its own cells that raises, with the lesson section that explains it.
"""
import os
import re
import sys
import warnings
from typing import NamedTuple

import torch


class KnownError(NamedTuple):
    key: str  # what a lesson's section table names it by
    fragment: str | re.Pattern  # a piece of PyTorch's (or Python's) message, or a pattern for a family of them
    meaning: str  # what it means, in autograd terms
    in_cells: str = ""  # said only under a student's own cell, where any section's cause may be the one

    def matches(self, text: str) -> bool:
        if isinstance(self.fragment, str):
            return self.fragment in text
        return self.fragment.search(text) is not None


KNOWN_ERRORS = [
    KnownError("freed_graph", "backward through the graph a second time",
               "the first backward() freed the graph; pass retain_graph=True to every call but the last, "
               "or rebuild the graph with a new forward pass."),
    KnownError("non_scalar", "grad can be implicitly created only for scalar outputs",
               "backward() and torch.autograd.grad() start from a scalar: reduce the output (.sum()), or pass "
               "weights v of its shape, as gradient=v to backward() or grad_outputs=v to torch.autograd.grad()."),
    KnownError("no_graph", "does not require grad and does not have a grad_fn",
               "this tensor is not part of any graph: was it made under no_grad() or while recording was "
               "switched off (a plain torch.set_grad_enabled(False) lasts until it is switched back on), "
               "detached, or created without requires_grad=True?",
               " A gradient from torch.autograd.grad or .grad has no graph either unless the differentiation "
               "that made it was given create_graph=True. Nor has a comparison (>, ==), argmax or round(): they "
               "have no gradient, so a count or a mean of their True/False results is not in the graph; build "
               "the loss from differentiable operations."),
    KnownError("leaf_in_place", "a leaf Variable that requires grad is being used in an in-place operation",
               "this tensor is a leaf that requires grad, and autograd refuses to change it in place while it "
               "records. For a new value, compute it out of place (y = x + 1 is a result in the graph); to "
               "update a parameter's values, as an optimizer step does, change it inside "
               "`with torch.no_grad():`."),
    KnownError("numpy_requires_grad", "Can't call numpy() on Tensor that requires grad",
               "NumPy cannot carry the graph. To print or plot the values, call .detach() first; to keep "
               "differentiating through this step, use the torch function instead (torch.sin, not np.sin): "
               "a detached value gets no gradient."),
    # torch.tensor(..., requires_grad=True) says "Only Tensors of floating point and complex dtype",
    # .requires_grad_() says "only Tensors of floating point dtype": one fragment for both.
    KnownError("integer_requires_grad", "Tensors of floating point",
               "make the tensor floating point (e.g. dtype=torch.float64) before asking for gradients."),
    KnownError("flag_of_result", "you can only change requires_grad flags of leaf variables",
               "requires_grad can only be set on leaves; detach() the result to make a new leaf."),
    KnownError("inference_saved", "Inference tensors cannot be saved for backward",
               "autograd cannot save a tensor made under inference_mode() for backward, so a recorded operation "
               "that needs its value (a multiplication, say) refuses it; make it under no_grad() instead, or "
               "clone() it outside inference_mode()."),
    KnownError("inference_in_place", "Inplace update to inference tensor outside InferenceMode",
               "tensors made under inference_mode() stay read-only outside it; clone() them to get a normal "
               "tensor."),
    KnownError("saved_modified", "modified by an inplace operation",
               "a tensor that backward() needs was changed in place after the forward pass; use an "
               "out-of-place operation (x = x + 1, not x += 1)."),
    KnownError("unused_input", "appears to not have been used in the graph",
               "the output does not depend on that input; pass allow_unused=True or check the inputs."),
    # math.sin(x), float(x) or a numpy function given a tensor of several elements.
    KnownError("math_on_tensor", "only one element tensors can be converted to Python scalars",
               "a tensor of several elements was used where one Python number is needed. If it went to a "
               "function for plain numbers (math.sin, math.exp, float()), use the torch function instead "
               "(torch.sin, torch.exp): it works elementwise, and autograd records it, while math.* returns "
               "a plain float with no graph. If it was torch.tensor() of a list of tensors, use "
               "torch.stack(), which keeps them as they are."),
    KnownError("hook_no_grad", "cannot register a hook on a tensor that doesn't require gradient",
               "autograd calls a tensor's hooks only while it computes that tensor's gradient, so "
               "register_hook needs a tensor that requires grad (a frozen parameter has none to see)."),
    # .numpy() on a bfloat16 tensor, with or without detach(): NumPy has no such dtype.
    KnownError("numpy_bfloat16", "unsupported ScalarType BFloat16",
               "NumPy has no bfloat16, so .numpy() refuses such a tensor even after detach(); "
               "converting it first (.float()) changes its dtype."),
    KnownError("deepcopy_result", "support the deepcopy protocol",
               "copy.deepcopy copies only leaves, and this tensor is the result of a recorded operation. For "
               "a copy of its values, use .detach().clone(); add .requires_grad_() for a new leaf."),
    # `if p.grad:`, `a and b` on tensors, or nn.MSELoss(pred, y) (tensors given to the constructor).
    KnownError("bool_of_tensor", "Boolean value of Tensor with more than one value is ambiguous",
               "Python asked a tensor of several values for one True or False (an `if`, `and`, `or` or `not`). "
               "To ask whether a .grad exists, write `if p.grad is not None:`; for values, use .any() or "
               ".all(). A loss class given tensors raises this too: make the loss first, "
               "`loss_fn = nn.MSELoss()`, then call it, `loss_fn(pred, y)`."),
    KnownError("grad_assigned", "assigned grad expected to be a Tensor or None",
               ".grad holds a tensor of the parameter's shape and dtype, or None: reset it with "
               "`p.grad = None` or `p.grad.zero_()`, not with a number."),
    KnownError("grad_assigned", "attempting to assign a gradient",
               ".grad holds a tensor of the parameter's own shape and dtype, or None."),
    KnownError("gradient_shape", "Mismatch in shape: grad_output",
               "the weights given as gradient= (or grad_outputs=) need the shape of the output they weight, "
               "one weight per output element: the message names both shapes, the output's last."),
    KnownError("gradient_shape", "v has invalid size",
               "the vector v of a vector-Jacobian product has one entry per output element: give it the "
               "shape of f(x), which the message names first."),
    KnownError("gradient_shape", "The vector v can only be None",
               "f(x) has several elements, so the vector-Jacobian product needs v, the weights of the "
               "outputs, of the shape of f(x)."),
    # len(x), for row in x or x[0] on a tensor of no dimensions: torch.tensor(2.0), a loss, a sum.
    KnownError("zero_dimensional", re.compile(r"(len\(\) of a 0-d tensor|iteration over a 0-d tensor|"
                                              r"invalid index of a 0-dim tensor)"),
               "this tensor has no dimensions (shape ()): it is a single number, with no rows or items to count, "
               "loop over or index. Count elements with x.numel(), and let torch's operations work on x whole: "
               "they work elementwise whatever its shape."),
    KnownError("item_of_many", "cannot be converted to Scalar",
               ".item() gives one Python number, so it works only on a tensor of one element: keep a result of "
               "several elements as a tensor (a gradient is returned as the tensor .grad holds)."),
    KnownError("tensor_not_node", "'Tensor' object has no attribute 'next_functions'",
               "a tensor is not a node of the graph: the node that made a result y is y.grad_fn, and the walk "
               "starts there."),
    KnownError("none_node", "'NoneType' object has no attribute 'next_functions'",
               "None stood where a node was expected: a leaf's grad_fn is None (its AccumulateGrad node is "
               "reached from a result's next_functions), and a constant's entry in next_functions is (None, 0)."),
    # node.grad_fn, node.grad, node.requires_grad ... on what grad_fn or next_functions gave: a node.
    KnownError("node_not_tensor", re.compile(r"'(\w+Backward\d*|AccumulateGrad)' object has no attribute"),
               "grad_fn and next_functions hold backward nodes, not tensors: a node has no .grad_fn, .grad, "
               ".requires_grad or .is_leaf. Step from a node to the next with node.next_functions[0][0] "
               "(next_functions holds (node, index) pairs)."),
    # node.next_functions[0].next_functions: a (node, index) pair taken for the node it holds.
    KnownError("pair_not_node", re.compile(r"'tuple' object has no attribute '(next_functions|name|metadata|"
                                           r"register_hook|register_prehook|_saved_\w+|_raw_saved_\w+)'"),
               "next_functions holds (node, index) pairs, and a pair is a tuple, not a node: the node is the "
               "pair's first item, `node.next_functions[0][0]` (or `for n, _ in node.next_functions:`)."),
    # y.grad_fn * 2, torch.sin(y.grad_fn): a backward node used where a tensor's values were meant.
    KnownError("node_in_arithmetic", re.compile(r"(unsupported operand type\(s\) for .*'(\w+Backward\d*|"
                                                r"AccumulateGrad)'|must be Tensor, not (\w+Backward\d*|"
                                                r"AccumulateGrad)\b)"),
               "grad_fn is a node of the graph (the operation that made the tensor), not a tensor: it has no "
               "values to compute with. Compute with the tensor itself (y * 2, not y.grad_fn * 2)."),
    # `with torch.no_grad:` without the call: Python gets the class itself.
    KnownError("context_not_called", "does not support the context manager protocol",
               "`with` needs a context manager object, and torch.no_grad (like torch.enable_grad, "
               "torch.inference_mode and torch.set_grad_enabled) is a class: call it, `with torch.no_grad():` "
               "(set_grad_enabled takes True or False)."),
    # m.weight = torch.zeros(1, 2): a layer's weight can only be replaced by another Parameter.
    KnownError("parameter_assigned", "(torch.nn.Parameter or None expected)",
               "a layer's weight is an nn.Parameter, and a plain tensor put in its place would drop it from "
               "the model's parameters. Change its values in place instead, without recording: "
               "`with torch.no_grad(): m.weight.zero_()` (or `m.weight.copy_(new_values)`), or "
               "`nn.init.zeros_(m.weight)`."),
    # torch.optim.SGD(model.parameters, lr=0.1): the method itself, not the parameters it gives.
    KnownError("method_not_called", "'method' object is not iterable",
               "a method was given where what it returns was meant: call it. `model.parameters()` gives the "
               "parameters an optimizer (or a `for p in ...` loop) needs; `model.parameters` is the method."),
    KnownError("number_backward", "'float' object has no attribute 'backward'",
               "this is a Python number, with no graph: .item() (or float()) took the loss out of autograd. Call "
               "backward() on the loss tensor, and take .item() only of the value you keep or return."),
    KnownError("post_hook_returned", "post accumulate grad hooks should return None",
               "a post-accumulate-grad hook changes p.grad itself and must return None; a lambda returns its "
               "expression's value (p.grad.clamp_(...) returns a tensor): write a def that returns nothing."),
    KnownError("post_hook_non_leaf", "cannot be registered on non-leaf tensors",
               "only leaves accumulate into .grad, so only a leaf (a parameter) takes a post-accumulate-grad "
               "hook; on a result, register_hook sees its gradient as it flows."),
    KnownError("clip_without_grads", "Expected !nested_tensorlist[0].empty()",
               "every .grad was None when this ran (no backward() had filled one), so there was nothing to clip "
               "or measure: clipping .grad now cannot reach later backward passes; a hook registered on a "
               "tensor sees each gradient as it arrives."),
    KnownError("optimize_non_leaf", "can't optimize a non-leaf Tensor",
               "an optimizer changes its tensors' values in place at each step, so it takes leaves: a model's "
               "parameters, or tensors made with requires_grad=True. This one is the result of an operation "
               "(w * 2, or w.double() or w.to(...) after requires_grad was set), which step() could not update: "
               "give it the leaf itself, or make the converted tensor a leaf first "
               "(w = w.double().detach().requires_grad_())."),
    KnownError("empty_parameters", "optimizer got an empty parameter list",
               "the optimizer was given no tensors to update. model.parameters() is a generator, empty once "
               "something has read it (a list() of it, a for loop over it, an earlier optimizer): call "
               "model.parameters() again where the optimizer is made, or keep params = list(model.parameters()). "
               "A list filtered on requires_grad is empty when every parameter is frozen."),
    KnownError("hook_changed_size", "has changed the size of value",
               "a tensor's hook gets the gradient on its way and must return None or a gradient of the same shape "
               "(grad.clamp(-c, c), grad * 2); this hook returned another shape (a .sum(), a .mean(), an indexed "
               "piece). Return a tensor of the gradient's own shape."),
    KnownError("retain_grad_no_grad", "can't retain_grad on Tensor that has requires_grad=False",
               "retain_grad() keeps the gradient of a tensor in the graph, and this one does not require grad: "
               "backward() computes no gradient for it. Call it on a result computed from a tensor that "
               "requires grad."),
]

# A .grad that is None (before any backward() reaches its tensor, or reset to None), or a layer's .bias
# built with bias=False, surfaces as one of these plain Python/PyTorch errors: an operator, a call, or
# any tensor method or attribute asked of None.
_GRAD_IS_NONE = ("a tensor was None here. If it was a .grad: it is None until backward() reaches the "
                 "tensor, and again after it is reset to None. If it was a layer's .bias: a layer built with "
                 "bias=False has None there. Check for None first (`if p.grad is not None:`).")
_TENSOR_ATTRIBUTES = sorted(name for name in dir(torch.Tensor) if not name.startswith("_"))
KNOWN_ERRORS += [KnownError("grad_none", fragment, _GRAD_IS_NONE) for fragment in (
    "must be Tensor, not NoneType",
    re.compile(r"'NoneType' object has no attribute '(%s)'" % "|".join(map(re.escape, _TENSOR_ATTRIBUTES))),
    "'NoneType' and '",  # p.grad + 1, p.grad * lr, p.grad += 1e-4 * p
    "'NoneType' object is not subscriptable",
    "and 'NoneType'",  # lr * p.grad
)]
# PyTorch's warnings that say the same kind of thing, explained under a cell that shows one.
KNOWN_ERRORS += [
    KnownError("non_leaf_grad", "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed",
               "this tensor is a result (it has a grad_fn), and backward() fills .grad only of leaves, so its "
               ".grad stays None. To keep a result's gradient, call its retain_grad() before backward(); or read "
               "the .grad of the leaf it was computed from. If a conversion such as .double() came after "
               "requires_grad, choose the dtype when you create the tensor instead."),
    KnownError("number_of_requires_grad", "Converting a tensor with requires_grad=True to a scalar",
               "a plain Python number was taken out of a tensor that requires grad (float(), int(), math.sin). "
               "Reading a value with .item() or float(), such as a loss after backward() to print or return "
               "it, is fine. It matters "
               "only if that number is then used to compute something that needs a gradient: a Python number "
               "has no graph, so none flows back through it; there, use the torch function on the tensor "
               "(torch.sin, not math.sin)."),
    # np.array(t) on NumPy 2: torch's __array__ does not take NumPy 2's copy keyword yet.
    KnownError("numpy_copy_keyword", "__array__ implementation doesn't accept a copy keyword",
               "harmless: NumPy 2 asked the tensor for a copy in a way PyTorch's __array__ does not take yet, "
               "and fell back to the old way; the array holds the right values. t.detach().numpy().copy() gives "
               "the same copied array without the warning (t.detach().numpy() alone shares the tensor's memory)."),
    KnownError("create_graph_cycle", "Using backward() with create_graph=True will create a reference cycle",
               "harmless for a short computation. With create_graph=True, .grad keeps the graph that computed it, "
               "and that graph refers back to the parameter, so neither is freed until .grad is set to None. "
               "torch.autograd.grad(..., create_graph=True) returns the gradient without storing it in .grad, and "
               "so without the cycle."),
    KnownError("copy_construct", "To copy construct from a tensor",
               "torch.tensor() of a tensor copies its values into a new tensor with no history, as "
               ".detach().clone() does (and says so plainly): right for a new leaf, but no gradient flows back "
               "to the tensor it was copied from. To keep differentiating, use that tensor itself."),
]
KEYS = {known.key for known in KNOWN_ERRORS}


# Where in PyTorch's C++ sources a warning or error was raised: noise to a learner, and a path that
# changes with every build of PyTorch.
_SOURCE_LOCATION = re.compile(r"\s*\(Triggered internally at [^)]*\)")


def without_source_location(text: str) -> str:
    """PyTorch's message without its "(Triggered internally at /__w/pytorch/...)" suffix."""
    return _SOURCE_LOCATION.sub("", text)


def known_error(error: BaseException) -> KnownError | None:
    """The autograd error ``error`` is, if it is one the course knows."""
    text = str(error)
    return next((known for known in KNOWN_ERRORS if known.matches(text)), None)


def explain_error(error: BaseException) -> str:
    """``TypeError: ...`` plus, for a known autograd error, what it means."""
    message = without_source_location(str(error)).strip()
    text = message.splitlines()[0] if message else ""
    said = f"{type(error).__name__}: {text}" if text else type(error).__name__
    known = known_error(error)
    return f"{said}\n  In autograd terms: {known.meaning}" if known else said


def cell_note(error: BaseException, sections: dict[str, str]) -> str | None:
    """The line shown under PyTorch's message when a student's cell raises a known autograd error."""
    known = known_error(error)
    if known is None:
        return None
    return f"In autograd terms: {known.meaning}{known.in_cells}" + _pointer(sections.get(known.key))


def _pointer(where: str | None) -> str:
    """" (This lesson explains it in section 4, ...)", or, for a section of another lesson
    ("lesson 2, section 4"), " (Lesson 2 explains it in section 4.)"."""
    if not where:
        return ""
    lesson, _, section = where.partition(", ")
    if lesson.startswith("lesson ") and section:
        return f" ({lesson.capitalize()} explains it in {section}.)"
    return f" (This lesson explains it in {where}.)"


def _handler(sections: dict[str, str]):
    def explain(shell, etype, value, tb, tb_offset=None):
        _trim_source_location(value)
        shell.showtraceback((etype, value, tb), tb_offset=tb_offset)  # PyTorch's own message, as always
        if hasattr(value, "_render_traceback_"):  # a self-check's verdict: it has explained itself
            return None
        note = cell_note(value, sections)
        if note:
            print(note, file=sys.stderr)
    return explain


def _trim_source_location(error: BaseException) -> None:
    """The error's own message, shown without PyTorch's source location."""
    args = getattr(error, "args", ())
    if args and isinstance(args[0], str) and _SOURCE_LOCATION.search(args[0]):
        try:
            error.args = (without_source_location(args[0]), *args[1:])
        except (AttributeError, TypeError):  # an exception type whose args are fixed: shown as it is
            pass


def _explain_warnings(sections: dict[str, str]) -> None:
    """Under a warning PyTorch shows (one the course knows), the same line as for an error: the
    lesson's last import decides the sections, never one wrapper stacked on another."""
    shown = getattr(warnings.showwarning, "__wrapped__", warnings.showwarning)

    def show(message, category, filename, lineno, file=None, line=None):
        shown(without_source_location(str(message)), category, filename, lineno, file, line)
        note = cell_note(message, sections)
        if note:
            print(note, file=file or sys.stderr)
    show.__wrapped__ = shown
    warnings.showwarning = show


def show_warnings_once(warned) -> None:
    """The warnings an answer gave while a check called it (``answer_warnings.Warned``: each once, as the
    grader shows them too), as the answer's own: the check's file and line would point to code the
    student never wrote."""
    for line in warned.lines():
        note = cell_note(line, _sections_in_cells) if _sections_in_cells is not None else None
        print(line + (f"\n{note}" if note else ""), file=sys.stderr)


_sections_in_cells: dict[str, str] | None = None  # the lesson's sections, while its cells are explained


def explain_errors_in_cells(sections: dict[str, str], shell=None) -> bool:
    """Under each cell of this lesson that raises a known autograd error (or shows a known warning),
    say what it means and where the lesson explains it. Off while nbgrader autogrades (the grader's
    messages are its own) and outside IPython. ``sections`` maps a KnownError key to the lesson's section."""
    unknown = set(sections) - KEYS
    if unknown:
        raise ValueError(f"no known autograd error is called {sorted(unknown)}")
    if os.environ.get("NBGRADER_EXECUTION") == "autograde":
        return False
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return False
        shell = get_ipython()
    if shell is None:
        return False
    global _sections_in_cells
    _sections_in_cells = dict(sections)
    shell.set_custom_exc((Exception,), _handler(dict(sections)))
    _explain_warnings(dict(sections))
    return True
