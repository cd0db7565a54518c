"""A widget's result, read out by a screen reader as it appears.

An ipywidgets ``HTML`` widget replaces its whole content at each change, so a live region inside it
is new each time; screen readers read a new element out at once only when it is an alert. A result
the learner asked for (a quick check's verdict, a stepper's step, a slope, a typed expression's
gradients) is therefore written inside ``role="alert"``; what a widget shows before anyone used it
is not, so running a cell does not talk over the lesson.
"""
import html


def announced(fragment: str, now: bool = True) -> str:
    """``fragment`` (HTML) as a widget shows a result: read out at once when ``now``."""
    return f'<div role="alert">{fragment}</div>' if now else f"<div>{fragment}</div>"


def code_line(text: str, now: bool = True) -> str:
    """A line of plain ``text`` in code type, ``announced``."""
    return announced(f"<code>{html.escape(text, quote=False)}</code>", now)
