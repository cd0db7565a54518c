"""Type an expression in x and y, see the graph autograd records for it and the gradients.

The text is parsed, never run: ``parse_expression`` accepts numbers, the names ``x`` and ``y``,
``+ - * / **``, and calls of the functions in ``FUNCTIONS`` (as ``sin(x)`` or ``torch.sin(x)``).
Anything else (attributes, other names, keywords, subscripts, lambdas...) is refused with a
sentence saying what is allowed, so a notebook cell cannot be turned into a way to run code.
The expression is then built with real torch calls on two leaves, and ``backward()`` fills their
``.grad``.
"""
import ast
import html

import ipywidgets as widgets
import torch

from course.visuals.announce import announced, code_line
from course.visuals.draw_graph import describe_graph
from course.visuals.drawing import grading, png
from course.visuals.image_view import ImageView
from course.visuals.picture import bundle, draw, text_alternative
from course.visuals.graph_text import format_values

FUNCTIONS = {name: getattr(torch, name) for name in
             ("sin", "cos", "tan", "exp", "log", "sqrt", "tanh", "sigmoid", "relu", "abs")}
OPERATORS = {ast.Add: torch.add, ast.Sub: torch.sub, ast.Mult: torch.mul, ast.Div: torch.div, ast.Pow: torch.pow}
UNARY = {ast.USub: torch.neg, ast.UAdd: lambda t: t}
VARIABLES = ("x", "y")
MAX_LENGTH = 200
MAX_CONSTANT = 1e6
DPI = 100
ALLOWED = (f"use x, y, numbers, + - * / **, and {', '.join(FUNCTIONS)} "
           "(as sin(x) or torch.sin(x))")


class ExpressionError(ValueError):
    """The text is not an expression this explorer builds; the message says what is allowed."""


def parse_expression(text: str) -> ast.Expression:
    """The checked syntax tree of ``text``; raises ExpressionError for anything outside the allowlist."""
    if len(text) > MAX_LENGTH:
        raise ExpressionError(f"the expression is longer than {MAX_LENGTH} characters.")
    try:
        tree = ast.parse(text.strip(), mode="eval")
    except SyntaxError as error:
        hint = " (powers are written **, not ^)" if "^" in text else ""
        raise ExpressionError(f"not a valid expression{hint}: {error.msg}.") from None
    for node in ast.walk(tree):
        _check(node)
    return tree


def _check(node: ast.AST) -> None:
    if isinstance(node, (ast.Expression, ast.Load)) or type(node) in OPERATORS or type(node) in UNARY:
        return
    if isinstance(node, ast.BinOp):
        if type(node.op) not in OPERATORS:
            hint = " (powers are written **, not ^)" if isinstance(node.op, ast.BitXor) else ""
            raise ExpressionError(f"the operator {type(node.op).__name__} is not allowed{hint}: {ALLOWED}.")
        return
    if isinstance(node, ast.UnaryOp):
        if type(node.op) not in UNARY:
            raise ExpressionError(f"the operator {type(node.op).__name__} is not allowed: {ALLOWED}.")
        return
    if isinstance(node, ast.Constant):
        if isinstance(node.value, bool) or not isinstance(node.value, (int, float)) or abs(node.value) > MAX_CONSTANT:
            raise ExpressionError(f"{node.value!r} is not a number this explorer takes: {ALLOWED}.")
        return
    if isinstance(node, ast.Name):
        if node.id not in VARIABLES and node.id != "torch" and node.id not in FUNCTIONS:
            raise ExpressionError(f"unknown name {node.id!r}: {ALLOWED}.")
        return
    if isinstance(node, ast.Attribute):  # only torch.<function>, checked with its call below
        if not (isinstance(node.value, ast.Name) and node.value.id == "torch" and node.attr in FUNCTIONS):
            raise ExpressionError(f"only torch functions from the list can be called: {ALLOWED}.")
        return
    if isinstance(node, ast.Call):
        if _function_name(node.func) is None or node.keywords or len(node.args) != 1:
            raise ExpressionError(f"a call takes one argument and one of the listed functions: {ALLOWED}.")
        return
    raise ExpressionError(f"{type(node).__name__} is not allowed here: {ALLOWED}.")


def _function_name(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name) and func.id in FUNCTIONS:
        return func.id
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "torch" \
            and func.attr in FUNCTIONS:
        return func.attr
    return None


def build(tree: ast.Expression, values: dict[str, torch.Tensor]) -> torch.Tensor:
    """Compute the checked expression with torch operations on ``values`` (the leaves x and y)."""
    def value(node):
        if isinstance(node, ast.Expression):
            return value(node.body)
        if isinstance(node, ast.Constant):
            return torch.tensor(float(node.value), dtype=torch.float64)
        if isinstance(node, ast.Name):
            if node.id not in values:
                raise ExpressionError(f"{node.id} on its own is not a value: call a function, as in sin(x).")
            return values[node.id]
        if isinstance(node, ast.BinOp):
            return OPERATORS[type(node.op)](value(node.left), value(node.right))
        if isinstance(node, ast.UnaryOp):
            return UNARY[type(node.op)](value(node.operand))
        if isinstance(node, ast.Call):
            return FUNCTIONS[_function_name(node.func)](value(node.args[0]))
        raise ExpressionError(f"{type(node).__name__} is not allowed here: {ALLOWED}.")
    return value(tree)


def gradients_of(text: str, x: float, y: float):
    """(f, x leaf, y leaf) after f.backward(), for the expression ``text`` at (x, y)."""
    leaves = {name: torch.tensor(float(v), dtype=torch.float64, requires_grad=True)
              for name, v in zip(VARIABLES, (x, y))}
    f = build(parse_expression(text), leaves)
    if f.grad_fn is None:
        raise ExpressionError("the expression does not use x or y, so autograd recorded no graph.")
    f.backward()
    return f, leaves["x"], leaves["y"]


def _grad(t: torch.Tensor) -> str:
    return "None (f does not depend on it)" if t.grad is None else format_values(t.grad)


class ExpressionGraph:
    """A text box and two values; on Enter, the result line and the graph are redrawn."""

    def __init__(self, text: str = "x * y + sin(x)", x: float = 1.0, y: float = 2.0):
        self.box = widgets.Text(value=text, description="f(x, y) =", continuous_update=False,
                                layout=widgets.Layout(width="480px"))
        self.x = widgets.FloatText(value=x, description="x =", layout=widgets.Layout(width="180px"))
        self.y = widgets.FloatText(value=y, description="y =", layout=widgets.Layout(width="180px"))
        self.result = widgets.HTML()
        self.image = ImageView(layout=widgets.Layout(max_width="760px"))
        self.widget = widgets.VBox([self.box, widgets.HBox([self.x, self.y]), self.result, self.image])
        self.widget.add_class("expression-graph")
        for control in (self.box, self.x, self.y):
            control.observe(lambda _: self._show(), names="value")
        self.initial = self._show(picture=not grading(), now=False)  # graded: no widget state is kept
        self.initial_text = self.text

    def _show(self, picture: bool = True, now: bool = True) -> tuple[dict, dict]:
        """Recompute and redraw; the picture as display bundle entries and their metadata (none when
        f cannot be built). ``picture``: put it in the widget too; ``now``: read the result out."""
        try:
            f, x, y = gradients_of(self.box.value, self.x.value, self.y.value)
        except (ExpressionError, RuntimeError) as error:
            self.text = f"Cannot build f: {error}"
            self.result.value = announced(f'<span style="color:#b2182b">{html.escape(self.text)}</span>', now)
            return {}, {}
        self.text = f"f = {format_values(f)};  df/dx = x.grad = {_grad(x)};  df/dy = y.grad = {_grad(y)}"
        # the picture first: when the result line changes, the matching picture is already there
        description = describe_graph(f, {"x": x, "y": y, "f": f}, title=f"f = {self.box.value.strip()}")
        drawn = png(draw(description), DPI) if picture or not grading() else None
        if picture:  # drawn here even while grading: someone is using the widget
            self.image.show(drawn, text_alternative(description))
        self.result.value = code_line(self.text, now)
        return bundle(description, DPI, drawn)

    def _repr_mimebundle_(self, **kwargs):
        render = self.widget._repr_mimebundle_
        shown = dict(render(**kwargs) or {}) if render else {}
        picture, metadata = self.initial
        shown.update(picture)
        shown["text/plain"] = self.initial_text + "\n(type another expression in x and y and press Enter)"
        return shown, metadata


def expression_graph(text: str = "x * y + sin(x)", x: float = 1.0, y: float = 2.0) -> ExpressionGraph:
    """A box to type f(x, y) into; shows its autograd graph and x.grad, y.grad after backward()."""
    return ExpressionGraph(text, x, y)
