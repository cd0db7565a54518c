"""A student's own cell that raises an autograd error gets PyTorch's message, then one line in
autograd terms and the section of this lesson that explains it; nothing changes while grading."""
import builtins
import io
import warnings

import pytest
import torch
from IPython.core.interactiveshell import InteractiveShell

from course.checks.explain_error import KEYS, cell_note, explain_errors_in_cells
from course.exercises import backward, graph, no_grad, zero_grad


@pytest.fixture
def shell():
    made = InteractiveShell.instance()
    made.run_cell("import torch")
    yield made
    made.set_custom_exc((), None)
    warnings.showwarning = getattr(warnings.showwarning, "__wrapped__", warnings.showwarning)
    InteractiveShell.clear_instance()


FREED = "x = torch.tensor(2.0, requires_grad=True)\ny = torch.sin(x) * x\ny.backward()\ny.backward()"


def test_a_freed_graph_in_a_cell_is_explained_with_the_lessons_section(shell, capfd):
    assert explain_errors_in_cells(backward.ERROR_SECTIONS, shell)
    result = shell.run_cell(FREED)
    out, err = capfd.readouterr()
    assert isinstance(result.error_in_exec, RuntimeError)
    said = out + err
    assert "Trying to backward through the graph a second time" in said  # PyTorch's own words first
    assert said.index("second time") < said.index("In autograd terms: the first backward() freed the graph")
    assert "This lesson explains it in section 4, The graph is freed after backward()" in said


@pytest.mark.parametrize("cell, words", [
    ("torch.ones(3, requires_grad=True).mul(2).backward()", "start from a scalar"),
    ("torch.ones(2, requires_grad=True).numpy()", "NumPy cannot carry the graph"),
    ("w = torch.ones(2, requires_grad=True)\nw += 1", "compute it out of place"),
    ("a = torch.ones(2, requires_grad=True)\nb = a.exp()\nb.add_(1)\nb.sum().backward()", "changed in place"),
    ("torch.tensor([1, 2], requires_grad=True)", "make the tensor floating point"),
])
def test_each_kind_of_autograd_error_gets_its_line(shell, capfd, cell, words):
    explain_errors_in_cells(graph.ERROR_SECTIONS, shell)
    shell.run_cell(cell)
    out, err = capfd.readouterr()
    assert "In autograd terms: " in out + err and words in out + err


@pytest.mark.parametrize("lesson, cell, words, where", [
    (no_grad, "w = torch.ones(2, requires_grad=True)\n(w ** 2).sum().backward()\nw -= 0.1 * w.grad",
     "change it inside `with torch.no_grad():`", "section 5, Updating parameters by hand"),
    (no_grad, "with torch.inference_mode():\n    s = torch.ones(2) * 2\n"
              "(torch.ones(2, requires_grad=True) * s).sum()", "cannot save a tensor made under inference_mode()", "section 6, set_grad_enabled()"),
    (no_grad, "torch.ones(2, dtype=torch.bfloat16).numpy()", "NumPy has no bfloat16", "section 8, Getting numbers out"),
    (no_grad, "w = torch.ones(2, requires_grad=True)\nw.mul(2).requires_grad_(False)", "only be set on leaves",
     "Lesson 1 explains it in section 7"),
    (zero_grad, "p = torch.ones(2, requires_grad=True)\np.data -= 0.1 * p.grad", "it is None until backward()",
     "section 1, .grad starts as None"),
    (zero_grad, "torch.ones(2).register_hook(lambda grad: grad)", "register_hook needs a tensor that requires grad",
     "section 9, Hooks"),
    (zero_grad, "x = torch.ones(2)\n(x ** 2).sum().backward()", "not part of any graph", "Lesson 1 explains it in section 1"),
])
def test_lessons_3_and_4_point_to_their_own_sections(shell, capfd, lesson, cell, words, where):
    assert explain_errors_in_cells(lesson.ERROR_SECTIONS, shell)
    shell.run_cell(cell)
    out, err = capfd.readouterr()
    assert "In autograd terms: " in out + err and words in out + err
    assert (where if where.startswith("Lesson") else f"This lesson explains it in {where}") in out + err


def test_other_errors_show_as_always(shell, capfd):
    explain_errors_in_cells(graph.ERROR_SECTIONS, shell)
    result = shell.run_cell("1 / 0")
    out, err = capfd.readouterr()
    assert isinstance(result.error_in_exec, ZeroDivisionError) and "ZeroDivisionError" in out + err
    assert "In autograd terms" not in out + err


@pytest.mark.parametrize("cell", ["(1, 2).shape", "(1, 2) * 2.5", "None * 2"])
def test_a_tuple_or_number_is_not_taken_for_a_node(cell):
    """The pair and node-arithmetic notes are narrow: only a node's attributes, only a node in arithmetic."""
    from course.checks.explain_error import known_error
    try:
        exec(cell)
    except Exception as error:
        assert known_error(error) is None or known_error(error).key not in {"pair_not_node", "node_in_arithmetic"}


def test_a_self_checks_verdict_is_not_explained_twice(shell, capfd):
    explain_errors_in_cells(backward.ERROR_SECTIONS, shell)
    shell.push({"check": backward})
    shell.run_cell("def grad_via_backward(f, x):\n    x = x.detach().clone().requires_grad_(True)\n"
                   "    f(x).expand(2).backward()\n    return x.grad\n"
                   "check.grad_via_backward(grad_via_backward)")
    out, err = capfd.readouterr()
    assert "Incorrect" in out + err and (out + err).count("In autograd terms") == 1
    assert "This lesson explains it" not in out + err


def test_each_lesson_names_its_own_sections():
    assert graph.ERROR_SECTIONS["integer_requires_grad"].startswith("section 2")
    assert backward.ERROR_SECTIONS["integer_requires_grad"].startswith("lesson 1")
    assert all(set(lesson.ERROR_SECTIONS) <= KEYS for lesson in (graph, backward, no_grad, zero_grad))
    error = RuntimeError("element 0 of tensors does not require grad and does not have a grad_fn")
    assert "section 1, backward()" in cell_note(error, backward.ERROR_SECTIONS)
    assert cell_note(ValueError("odd"), backward.ERROR_SECTIONS) is None
    freed = RuntimeError("Trying to backward through the graph a second time")
    assert cell_note(freed, graph.ERROR_SECTIONS).endswith("(Lesson 2 explains it in section 4.)")
    with pytest.raises(ValueError, match="no known autograd error"):
        explain_errors_in_cells({"typo": "section 1"})


def test_off_while_autograding_and_outside_ipython(shell, monkeypatch):
    monkeypatch.setenv("NBGRADER_EXECUTION", "autograde")
    assert not explain_errors_in_cells(graph.ERROR_SECTIONS, shell)
    assert shell.custom_exceptions == ()
    monkeypatch.delenv("NBGRADER_EXECUTION")
    InteractiveShell.clear_instance()
    assert not explain_errors_in_cells(graph.ERROR_SECTIONS)  # no shell: a plain import changes nothing
    assert torch.ones(1).item() == 1.0


# The errors a fresh reader met raw in their own cells, each with the lesson's pointer to where it is taught.
@pytest.mark.parametrize("lesson, cell, words, where", [
    (graph, "torch.tensor([1, 2]).requires_grad_()", "make the tensor floating point", "section 2, Leaves"),
    (graph, "import copy\nx = torch.ones(2, requires_grad=True)\ncopy.deepcopy(x * 2)", "copies only leaves", None),
    (zero_grad, "p = torch.ones(2, requires_grad=True)\np.grad += 1", "it is None until backward()",
     "section 1, .grad starts as None"),
    (zero_grad, "pred, y = torch.ones(3), torch.zeros(3)\ntorch.nn.MSELoss(pred, y)", "loss_fn = nn.MSELoss()", None),
    (zero_grad, "p = torch.ones(2, requires_grad=True)\np.grad = 0", "`p.grad = None` or `p.grad.zero_()`",
     "section 2, Resetting .grad"),
    (zero_grad, "p = torch.ones(2, requires_grad=True)\n(p * p).sum().backward()\nif p.grad:\n    pass",
     "`if p.grad is not None:`", None),
    (backward, "x = torch.ones(2, requires_grad=True)\n(x * 2).backward(gradient=torch.ones(3))",
     "need the shape of the output", "section 7, gradient= is a vector-Jacobian product"),
    (backward, "x = torch.ones(2, requires_grad=True)\n"
               "torch.autograd.functional.vjp(lambda a: a * 2, x, torch.ones(3))", "shape of f(x)", "section 7"),
    (backward, "x, z = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)\n"
               "torch.autograd.grad((x * 2).sum(), [x, z])", "allow_unused=True", "section 9, torch.autograd.grad"),
    (backward, "torch.ones(2).retain_grad()", "does not require grad", "section 8, Only leaves keep .grad"),
    (backward, "torch.ones(2, requires_grad=True).numpy()", "NumPy cannot carry the graph",
     "Lesson 1 explains it in section 5"),
    (graph, "x = torch.ones(2, requires_grad=True)\nx.add_(1)", "compute it out of place",
     "Lesson 3 explains it in section 5"),
    (graph, "y = torch.ones(2, requires_grad=True).sum()\ny.next_functions", "the node that made a result y is y.grad_fn",
     "section 3, Walking the graph"),
    (graph, "x = torch.ones(2, requires_grad=True)\nx.grad_fn.next_functions", "a leaf's grad_fn is None",
     "section 3, Walking the graph"),
    (graph, "import numpy as np\nnp.sin(torch.ones(2, requires_grad=True))", "use the torch function instead",
     "section 5, A function with a recorded graph"),
    (backward, "torch.ones(3).item()", "works only on a tensor of one element", "Lesson 3 explains it in section 8"),
    (backward, "x = torch.ones(2, requires_grad=True)\ng, = torch.autograd.grad((x ** 2).sum(), x)\n"
               "torch.autograd.grad(g.sum(), x)", "create_graph=True", "section 1, backward() fills"),
    (zero_grad, "model = torch.nn.Linear(2, 1)\nloss = model(torch.ones(3, 2)).pow(2).mean().item()\nloss.backward()",
     "took the loss out of autograd", "section 3, Where zero_grad() goes"),
    (zero_grad, "w = torch.ones(2, requires_grad=True)\n"
                "w.register_post_accumulate_grad_hook(lambda p: p.grad.clamp_(-1, 1))\n(w * 3).sum().backward()",
     "write a def that returns nothing", "section 9, Hooks"),
    (zero_grad, "(torch.ones(2, requires_grad=True) * 2).register_post_accumulate_grad_hook(print)",
     "only a leaf (a parameter) takes a post-accumulate-grad hook", "section 9, Hooks"),
    (zero_grad, "torch.nn.utils.clip_grad_value_(torch.nn.Linear(2, 1).parameters(), 1.0)",
     "every .grad was None when this ran", "section 7, Reading .grad"),
    # any tensor method or attribute asked of a None .grad or .bias, not only zero_() and operators
    (zero_grad, "m = torch.nn.Linear(3, 1)\nm.zero_grad()\nm.weight.grad.add_(1.0)", "a tensor was None here",
     "section 1, .grad starts as None"),
    (backward, "torch.nn.Linear(2, 2, bias=False).bias.requires_grad_(True)", "built with bias=False",
     "section 1, backward() fills"),
    (backward, "x = torch.ones(2, requires_grad=True)\nx.grad.clone()", "until backward() reaches the tensor",
     "section 1, backward() fills"),
    (backward, "x = torch.ones(2, requires_grad=True)\nx.grad.zero_()", "again after it is reset to None",
     "section 1, backward() fills"),
    (graph, "x = torch.ones(2, requires_grad=True)\nx.grad.item()", "Check for None first",
     "Lesson 2 explains it in section 1"),
    (no_grad, "x = torch.ones(2, requires_grad=True)\nx.grad.data", "a tensor was None here", "section 5, Updating"),
    # a backward node treated as a tensor while walking the graph
    (graph, "y = (torch.ones(2, requires_grad=True) * 2).sum()\ny.grad_fn.next_functions[0][0].grad_fn",
     "hold backward nodes, not tensors", "section 3, Walking the graph"),
    (backward, "y = (torch.ones(2, requires_grad=True) * 2).sum()\ny.grad_fn.is_leaf",
     "node.next_functions[0][0]", "Lesson 1 explains it in section 3"),
    # a (node, index) pair of next_functions taken for the node, and a node used in arithmetic
    (graph, "y = (torch.ones(2, requires_grad=True) * 2).sum()\ny.grad_fn.next_functions[0].next_functions",
     "the node is the pair's first item", "section 3, Walking the graph"),
    (backward, "y = (torch.ones(2, requires_grad=True) * 2).sum()\ny.grad_fn.next_functions[0].name()",
     "`node.next_functions[0][0]`", "Lesson 1 explains it in section 3"),
    (graph, "y = (torch.ones(2, requires_grad=True) * 2).sum()\ny.grad_fn * 2",
     "grad_fn is a node of the graph", "section 3, Walking the graph"),
    # a layer's weight replaced by a plain tensor; a model's parameters method given uncalled
    (graph, "m = torch.nn.Linear(2, 1)\nm.weight = torch.zeros(1, 2)", "`with torch.no_grad(): m.weight.zero_()`",
     "Lesson 3 explains it in section 5"),
    (no_grad, "m = torch.nn.Linear(2, 1)\nm.weight = torch.zeros(1, 2)", "`nn.init.zeros_(m.weight)`",
     "section 5, Updating parameters by hand"),
    (backward, "model = torch.nn.Linear(2, 1)\ntorch.optim.SGD(model.parameters, lr=0.1)",
     "call it. `model.parameters()`", "Lesson 4 explains it in section 2"),
    # a grad-mode context manager used without its call
    (graph, "with torch.no_grad:\n    pass", "call it, `with torch.no_grad():`", "Lesson 3 explains it in section 1"),
    (no_grad, "with torch.inference_mode:\n    pass", "torch.inference_mode", "section 1, torch.no_grad()"),
    (no_grad, "with torch.set_grad_enabled:\n    pass", "set_grad_enabled takes True or False", "section 1"),
    (zero_grad, "with torch.enable_grad:\n    pass", "is a class: call it", "Lesson 3 explains it in section 1"),
])
def test_errors_met_in_a_students_own_cells_are_explained(shell, capfd, lesson, cell, words, where):
    assert explain_errors_in_cells(lesson.ERROR_SECTIONS, shell)
    shell.run_cell(cell)
    out, err = capfd.readouterr()
    assert "In autograd terms: " in out + err and words in out + err
    if where is None:
        assert "explains it" not in out + err
    else:
        assert where in out + err


LESSONS = {"01_graph": graph, "02_backward": backward, "03_no_grad": no_grad, "04_zero_grad": zero_grad}


def test_every_error_a_lesson_teaches_has_a_pointer_in_every_lesson():
    """A key that some lesson explains in a section of its own is pointed to from every lesson."""
    taught = {key for lesson in LESSONS.values() for key, where in lesson.ERROR_SECTIONS.items()
              if not where.startswith("lesson ")}
    assert taught >= KEYS - {"deepcopy_result", "bool_of_tensor", "numpy_copy_keyword", "zero_dimensional"}
    for name, lesson in LESSONS.items():
        assert taught <= set(lesson.ERROR_SECTIONS), f"{name} has no pointer for {taught - set(lesson.ERROR_SECTIONS)}"


@pytest.mark.parametrize("assignment", sorted(LESSONS))
def test_every_error_a_lesson_demonstrates_is_explained_with_its_section(assignment):
    """Each `shows_error` example of a lesson prints an error the course knows, and the lesson points to
    where it is explained (read from the executed source notebook's outputs)."""
    from course.checks.explain_error import known_error
    from lesson_solutions import source_notebook
    shown = [output["text"] for cell in source_notebook(assignment).cells
             if cell.cell_type == "code" and "with shows_error(" in cell.source
             for output in cell.outputs if output.get("name") == "stdout"]
    assert shown
    for text in shown:
        kind, _, message = text.strip().partition(": ")
        known = known_error(getattr(builtins, kind, RuntimeError)(message))
        assert known is not None, f"{assignment}: no explanation for {text.strip()[:120]}"
        assert known.key in LESSONS[assignment].ERROR_SECTIONS, f"{assignment}: no section for {known.key}"


# PyTorch's warnings a reader met in their own cells, explained as its errors are, with the section.
@pytest.mark.parametrize("cell, words, where", [
    ("x = torch.ones(3, requires_grad=True).double()\nx.sum().backward()\nx.grad", "backward() fills .grad only of leaves",
     "section 9, A leaf from any data"),
    ("import math\ntorch.set_warn_always(True)\nmath.sin(torch.tensor(0.5, requires_grad=True))",
     "use the torch function on the tensor", "section 5, A function with a recorded graph"),
    ("t = torch.ones(2, requires_grad=True) * 2\ntorch.tensor(t)", "no gradient flows back", "section 9, A leaf"),
    ("h = torch.ones(2, requires_grad=True) * 2\nh.sum().backward()\nh.grad", "call its retain_grad() before backward()",
     "section 9, A leaf"),
    ("import numpy as np\nnp.array(torch.ones(2, requires_grad=True).detach())",
     "t.detach().numpy().copy() gives the same copied array", ""),
    ("torch.set_warn_always(True)\nloss = (torch.ones(2, requires_grad=True) * 2).sum()\nloss.backward()\nfloat(loss)",
     "such as a loss after backward() to print or return it, is fine", "section 5, A function"),
])
def test_warnings_met_in_a_students_own_cells_are_explained(shell, capfd, cell, words, where):
    assert explain_errors_in_cells(graph.ERROR_SECTIONS, shell)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        shell.run_cell(cell)
    torch.set_warn_always(False)
    out, err = capfd.readouterr()
    assert "In autograd terms: " in out + err and words in out + err and where in out + err


def test_the_warning_note_is_written_once_however_often_a_lesson_is_imported(shell, capfd):
    for _ in range(3):
        explain_errors_in_cells(graph.ERROR_SECTIONS, shell)
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        shell.run_cell("y = torch.ones(2, requires_grad=True) * 2\ny.grad")
    out, err = capfd.readouterr()
    assert (out + err).count("In autograd terms: ") == 1


# The errors and the warning a fresh reader met raw, each with its line and the lesson's section.
@pytest.mark.parametrize("lesson, cell, words, where", [
    (zero_grad, "w = torch.ones(2, requires_grad=True)\ntorch.optim.SGD([w * 2], lr=0.1)",
     "an optimizer changes its tensors' values in place", "section 2, Resetting .grad"),
    (no_grad, "w = torch.ones(2, requires_grad=True).double()\ntorch.optim.SGD([w], lr=0.1)",
     "make the converted tensor a leaf first", "section 5, Updating parameters by hand"),
    (zero_grad, "model = torch.nn.Linear(2, 1)\nparams = model.parameters()\nn = len(list(params))\n"
                "torch.optim.SGD(params, lr=0.1)", "empty once something has read it", "section 2, Resetting .grad"),
    (zero_grad, "w = torch.ones(3, requires_grad=True)\nw.register_hook(lambda grad: grad.sum())\n(w * 2).sum().backward()",
     "must return None or a gradient of the same shape", "section 9, Hooks"),
    (backward, "x = torch.ones(3, requires_grad=True)\n((x * 2) > 1).float().mean().backward()",
     "Nor has a comparison (>, ==)", "section 1, backward() fills"),
])
def test_errors_met_raw_in_a_readers_cells_are_explained(shell, capfd, lesson, cell, words, where):
    assert explain_errors_in_cells(lesson.ERROR_SECTIONS, shell)
    shell.run_cell(cell)
    out, err = capfd.readouterr()
    assert "In autograd terms: " in out + err and words in out + err, out + err
    assert f"This lesson explains it in {where}" in out + err


def test_create_graphs_memory_warning_is_explained_without_pytorchs_source_location(shell, capfd):
    assert explain_errors_in_cells(backward.ERROR_SECTIONS, shell)
    warn_always = torch.is_warn_always_enabled()
    torch.set_warn_always(True)  # PyTorch warns once a process: an earlier test in this worker may have met it
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("always")
            shell.run_cell("x = torch.ones(2, requires_grad=True)\n(x ** 3).sum().backward(create_graph=True)")
    finally:
        torch.set_warn_always(warn_always)
    out, err = capfd.readouterr()
    assert "harmless for a short computation" in err and "torch.autograd.grad(..., create_graph=True)" in err
    assert "This lesson explains it in section 11, Gradients of gradients" in err
    printed = []  # what the notebook's own printing of the warning is handed
    with warnings.catch_warnings():
        warnings.showwarning = lambda message, *rest: printed.append(str(message))
        explain_errors_in_cells(backward.ERROR_SECTIONS, shell)
        warnings.showwarning(UserWarning("Using backward() with create_graph=True will create a reference cycle. "
                                         "(Triggered internally at /__w/pytorch/engine.cpp:1307.)"),
                             UserWarning, "cell.py", 2, io.StringIO())
    assert printed == ["Using backward() with create_graph=True will create a reference cycle."]


def test_pytorchs_source_location_is_trimmed_from_errors_in_cells_and_from_checks(shell, capfd):
    from course.checks.explain_error import explain_error, without_source_location
    said = "a problem. (Triggered internally at /__w/pytorch/pytorch/aten/src/ATen/x.cpp:12.)"
    assert without_source_location(said) == "a problem."
    assert "Triggered" not in explain_error(RuntimeError(said))
    explain_errors_in_cells(graph.ERROR_SECTIONS, shell)
    shell.push({"said": said})
    shell.run_cell("raise RuntimeError(said)")
    out, err = capfd.readouterr()
    assert ": a problem.\n" in out + err and "Triggered internally" not in out + err


def test_a_correct_answer_that_returns_float_of_the_loss_prints_no_warning(capfd):
    """`return float(loss)` warns that a tensor requiring grad became a number: right here, so not shown."""
    def train_step(model, optimizer, x, y, loss_fn):
        optimizer.zero_grad()
        loss = loss_fn(model(x), y)
        loss.backward()
        optimizer.step()
        return float(loss)
    torch.set_warn_always(True)  # PyTorch gives this warning once per process
    try:
        zero_grad.train_step(train_step)
    finally:
        torch.set_warn_always(False)
    out, err = capfd.readouterr()
    assert "Correct" in out and err == "" and "Warning" not in out


def test_a_wrong_answer_still_shows_its_warnings(capfd):
    def grads_with_intermediate(x):  # reads a non-leaf's .grad: the warning is the clue
        x = x.detach().clone().requires_grad_(True)
        h = torch.tanh(x)
        (h ** 2 * x).sum().backward()
        return x.grad, h.grad
    torch.set_warn_always(True)
    try:
        with pytest.raises(Exception):
            backward.grads_with_intermediate(grads_with_intermediate)
    finally:
        torch.set_warn_always(False)
    assert "not a leaf Tensor" in capfd.readouterr().err


@pytest.mark.parametrize("cell", ["len(torch.tensor(2.0))", "[v for v in torch.tensor(2.0)]", "torch.tensor(2.0)[0]"])
def test_a_tensor_of_no_dimensions_counted_looped_or_indexed_is_explained(cell):
    from course.checks.explain_error import known_error
    with pytest.raises(Exception) as raised:
        exec(cell, {"torch": torch})
    assert known_error(raised.value).key == "zero_dimensional"
    assert "x.numel()" in known_error(raised.value).meaning
