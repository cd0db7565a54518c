"""The warnings an answer gave while it was checked: each shown once, as plain and bounded data.

A check calls the answer several times (the grader, on several seeds), so one warning would print
once per call; both sides show each once, as ``UserWarning: message`` lines, the way a notebook
prints a warning. The self-check prints them in the student's kernel. The grader gets them from the
kernel beside each observation and shows them in the graded cell, so what crosses is plain data
with caps (``MAX_WARNINGS`` warnings of at most ``MAX_MESSAGE`` characters each), read here with
every field checked: a field that cannot be read is said to be so, never run, never markup.
"""
import json
import re
from dataclasses import dataclass, field

from .explain_error import without_source_location
from .observation import Unreadable

MIME = "application/vnd.autograd-course.warnings+json"
MAX_WARNINGS = 8  # distinct warnings kept for one check or graded exercise
MAX_MESSAGE = 2000  # characters of one warning's message (PyTorch's longest are about 600)
MAX_SENT = 64 * 1024  # characters of one kernel's field, checked before a byte of it is parsed
_CATEGORY = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,99}")  # a warning class's name, e.g. UserWarning
_CUT = " [... {} characters cut]"


def _cut(message: str) -> str:
    """At most MAX_MESSAGE characters, saying how many were cut; a message cut once is not cut again."""
    if len(message) <= MAX_MESSAGE:
        return message
    kept = MAX_MESSAGE - len(_CUT.format(len(message)))
    return message[:kept] + _CUT.format(len(message) - kept)


@dataclass
class Warned:
    """The distinct warnings of one check's calls, in the order first given, at most MAX_WARNINGS."""
    said: list[tuple[str, str]] = field(default_factory=list)  # (category name, message)
    more: bool = False  # more distinct warnings were given than are kept
    unreadable: str = ""  # why a kernel's field could not be read (the grader's side only)

    @classmethod
    def caught(cls, caught) -> "Warned":
        """What ``warnings.catch_warnings(record=True)`` caught while a check called the answer."""
        warned = cls()
        warned.add((warning.category.__name__, str(warning.message)) for warning in caught)
        return warned

    def add(self, pairs, more: bool = False) -> None:
        """Each (category, message) once, as Python's default filter shows a warning once per place."""
        self.more = self.more or more
        for category, message in pairs:
            said = (category, _cut(without_source_location(message)))
            if said in self.said:
                continue
            if len(self.said) >= MAX_WARNINGS:
                self.more = True
                return
            self.said.append(said)

    def lines(self, warnings: bool = True) -> list[str]:
        """One line per warning as a notebook prints it, then what was left out or could not be read
        (without ``warnings``, only that a kernel's field could not be read)."""
        shown = [f"{category}: {message}" for category, message in self.said] if warnings else []
        if self.more and warnings:
            shown.append(f"(more warnings were given; the first {MAX_WARNINGS} are shown)")
        if self.unreadable:
            shown.append(f"(the warnings sent back with this answer could not be read: {self.unreadable})")
        return shown

    def text(self, warnings: bool = True) -> str:
        """The stream's text: one line per warning; empty when there is nothing to show."""
        return "".join(line + "\n" for line in self.lines(warnings))

    def dumps(self) -> str:
        """The kernel's side: plain JSON, sent beside the observation."""
        return json.dumps({"said": [list(pair) for pair in self.said], "more": self.more})

    def read(self, text) -> None:
        """The grader's side: add what a kernel sent; anything malformed is said, never raised."""
        try:
            self.add(*_loads(text))
        except Unreadable as error:
            self.unreadable = str(error)


def _loads(text) -> tuple[list[tuple[str, str]], bool]:
    """A kernel's field as (category, message) pairs and its ``more`` flag; Unreadable says why not."""
    if not isinstance(text, str):
        raise Unreadable(f"a {type(text).__name__} where text was expected")
    if len(text) > MAX_SENT:
        raise Unreadable(f"{len(text)} characters, more than the {MAX_SENT} it may hold")
    try:
        sent = json.loads(text)
    except (ValueError, RecursionError):
        raise Unreadable("it is not JSON") from None
    if not isinstance(sent, dict) or not isinstance(sent.get("said"), list) or not isinstance(sent.get("more"), bool):
        raise Unreadable('it is not {"said": [...], "more": true or false}')
    if len(sent["said"]) > MAX_WARNINGS or not all(_is_pair(pair) for pair in sent["said"]):
        raise Unreadable(f"it is not a list of at most {MAX_WARNINGS} [category, message] pairs")
    return [(category, message) for category, message in sent["said"]], sent["more"]


def _is_pair(pair) -> bool:
    return (isinstance(pair, list) and len(pair) == 2 and all(isinstance(part, str) for part in pair)
            and _CATEGORY.fullmatch(pair[0]) is not None)
