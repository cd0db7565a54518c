"""A multiple-choice question with instant feedback, for checking understanding, not for grades.

The answer stays in this Python object. Nothing that is displayed or synced to the browser (the
widgets' state, which nbconvert also saves into the notebook, and the text fallback) says which
option is right until the learner picks it.

Each wrong option carries its own reason, ``(text, why)``, shown when it is picked: "Not B" alone
teaches nothing. (A bare string still works, with a generic nudge, for questions not yet given one.)
"""
import html

import ipywidgets as widgets

from course.visuals.announce import announced

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


NO_REASON = "Think it through once more and pick another option."
# the words say right or wrong; the marks repeat it for the eye, and a screen reader skips them
MARKS = {True: '<span aria-hidden="true">✅ </span>', False: '<span aria-hidden="true">❌ </span>'}


class QuickCheck:
    def __init__(self, question: str, options: list, answer_index: int, explanation: str):
        if not 2 <= len(options) <= len(LETTERS):
            raise ValueError(f"a quick check needs 2 to {len(LETTERS)} options, got {len(options)}")
        if not 0 <= answer_index < len(options):
            raise ValueError(f"answer_index {answer_index} is not an index into {len(options)} options")
        pairs = [(option, "") if isinstance(option, str) else tuple(option) for option in options]
        self.question, self.options = question, [text for text, _ in pairs]
        self._why = [why for _, why in pairs]
        self._answer, self._explanation = answer_index, explanation
        self.choices = widgets.RadioButtons(
            options=[(f"{LETTERS[i]}) {text}", i) for i, text in enumerate(self.options)],
            value=None, layout=widgets.Layout(width="auto"),
        )
        self.feedback = widgets.HTML()
        self.widget = widgets.VBox([
            widgets.HTML(f"<b>Quick check</b> (not graded): {html.escape(question)}"),
            self.choices,
            self.feedback,
        ])
        self.choices.observe(self._picked, names="value")

    def _picked(self, change):
        picked = change["new"]
        if picked is None:
            self.feedback.value = ""
        elif picked == self._answer:
            self.feedback.value = announced(f'{MARKS[True]}<b>Right.</b> {html.escape(self._explanation)}')
        else:
            why = self._why[picked] or NO_REASON
            self.feedback.value = announced(f'{MARKS[False]}<b>Not {LETTERS[picked]}.</b> {html.escape(why)}')

    def reason(self, index: int) -> str:
        """What picking option ``index`` shows (the explanation for the right one)."""
        return self._explanation if index == self._answer else (self._why[index] or NO_REASON)

    def text(self) -> str:
        """The question and options, without the answer: what a text-only output shows."""
        lines = [f"Quick check (not graded): {self.question}"]
        lines += [f"  {LETTERS[i]}) {text}" for i, text in enumerate(self.options)]
        lines.append("(run the notebook in Jupyter to pick an answer and get feedback)")
        return "\n".join(lines)

    def __repr__(self) -> str:
        return self.text()

    def _repr_mimebundle_(self, **kwargs):
        render = self.widget._repr_mimebundle_  # None once the widget is closed
        bundle = dict(render(**kwargs) or {}) if render else {}
        bundle["text/plain"] = self.text()
        return bundle


def quick_check(question, options, answer_index, explanation) -> QuickCheck:
    """Ask `question`; make it the last line of a cell to show it."""
    return QuickCheck(question, options, answer_index, explanation)


def asker(questions: dict):
    """`ask(name)` for a lesson's table of questions, so a lesson's cell reads `ask("name")` and
    its source shows neither the answer nor the reasons that would point to it."""
    def ask(name: str) -> QuickCheck:
        if name not in questions:
            raise KeyError(f"no quick check named {name!r}; this lesson has {', '.join(sorted(questions))}")
        return QuickCheck(**questions[name])
    return ask
