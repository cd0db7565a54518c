"""Hints that go from a nudge to nearly the answer, one level per call."""
import html

from .outcome import code_spans


class Hint:
    def __init__(self, name: str, level: int, total: int, text: str):
        self.name, self.level, self.total, self.text = name, level, total, text

    def __repr__(self):
        more = " Call .hint() again for more." if self.level < self.total else " (That is the last hint.)"
        return f"Hint {self.level}/{self.total} for {self.name}: {self.text}{more}"

    def _repr_html_(self):
        more = (" <i>Call <code>.hint()</code> again for more.</i>" if self.level < self.total
                else " <i>(That is the last hint.)</i>")
        return (f'<div style="color:#2166ac"><b>Hint {self.level}/{self.total}</b> '
                f"for <code>{html.escape(self.name)}</code>: {code_spans(self.text)}{more}</div>")


class Hints:
    def __init__(self, name: str, texts: list[str]):
        if len(texts) < 2:
            raise ValueError(f"{name}: an exercise needs at least two levels of hints")
        self.name, self.texts, self.shown = name, texts, 0

    def show(self, level: int | None = None) -> Hint:
        if level is None:
            level = min(self.shown + 1, len(self.texts))
        if not 1 <= level <= len(self.texts):
            raise ValueError(f"{self.name} has hints 1 to {len(self.texts)}")
        self.shown = max(self.shown, level)
        return Hint(self.name, level, len(self.texts), self.texts[level - 1])

    def display(self, level: int | None = None) -> None:
        """Show the hint now rather than return it: two calls in one cell show both levels, not
        only the last one (a returned value is displayed only when it ends the cell)."""
        hint = self.show(level)
        try:
            from IPython.display import display
        except ImportError:
            print(repr(hint))
        else:
            display(hint)
