"""What ``collect`` did with every file of a download, as the lines the instructor reads.

Names come from students (file names, zip entries, folder names on the exchange): every line is
shown with its control and format characters escaped, so no name can start a line of its own,
move the cursor, colour the terminal or reverse the text that follows it.
"""
import unicodedata
from dataclasses import dataclass, field
from typing import NamedTuple

_HIDDEN = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}  # control, format (bidi), surrogate, private, unassigned, separators


def printable(text: str) -> str:
    """``text`` with every character a terminal would act on written as its escape (\\n, \\x1b, \\u202e)."""
    if text.isprintable():
        return text
    return "".join(_escaped(c) if unicodedata.category(c) in _HIDDEN else c for c in text)


def _escaped(char: str) -> str:
    code = ord(char)
    return {"\n": "\\n", "\r": "\\r", "\t": "\\t"}.get(char) or (
        f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")


class Item(NamedTuple):
    """One file of the download and what became of it."""
    source: str
    student: str = ""
    lesson: str = ""
    why: str = ""


@dataclass
class CollectReport:
    placed: list[Item] = field(default_factory=list)
    unchanged: list[Item] = field(default_factory=list)      # submitted/ already holds the same bytes
    superseded: list[Item] = field(default_factory=list)     # an older attempt or a copy; why names the one kept
    skipped: list[Item] = field(default_factory=list)        # not a submission (junk-like, deep zip, nobody's)
    unplaced: list[Item] = field(default_factory=list)       # a submission that could not be placed
    conflicts: list[Item] = field(default_factory=list)      # two notebooks, nothing tells which: both kept aside
    kept_both: list[Item] = field(default_factory=list)      # differs from submitted/, not newer: kept aside too
    unreadable: list[Item] = field(default_factory=list)     # placed, but not a readable notebook
    refused: list[Item] = field(default_factory=list)        # too big to read: not placed, reason in ungraded/
    not_notebooks: list[Item] = field(default_factory=list)  # only a PDF, HTML, ...: kept, reason in ungraded/
    also: list[Item] = field(default_factory=list)           # another upload beside the notebook: kept aside
    missing: list[tuple[str, str]] = field(default_factory=list)  # (roster student, lesson)
    unread_times: list[Item] = field(default_factory=list)   # a Moodle worksheet time that could not be read
    notes: list[str] = field(default_factory=list)           # said once for the whole download
    distrusted: list[Item] = field(default_factory=list)     # the exchange: a stated time that is not when it arrived

    @property
    def ok(self) -> bool:
        """Everything that is a submission is accounted for under a student, with every time the LMS
        gave (missing students are not an error here)."""
        return not self.unplaced and not self.conflicts and not self.unread_times and not self.distrusted

    def lines(self) -> list[str]:
        """Every line ``collect`` prints, each one line whatever the names in it hold."""
        return [printable(line) for line in self._lines()]

    def _lines(self) -> list[str]:
        def who(item: Item) -> str:
            return f"{item.student}/{item.lesson} from {item.source}"
        out = [f"collected: {len(self.placed)} placed, {len(self.unchanged)} unchanged, "
               f"{len(self.superseded)} superseded, {len(self.not_notebooks)} not a notebook, "
               f"{len(self.also)} other upload(s), {len(self.skipped)} skipped, {len(self.unplaced)} not placed, "
               f"{len(self.conflicts)} conflict(s), {len(self.refused)} refused, {len(self.missing)} missing"]
        out += [f"note: {note}" for note in self.notes]
        out += [f"placed {who(i)}" + (f" ({i.why})" if i.why else "") for i in self.placed]
        out += [f"unchanged {who(i)}: submitted/ already holds it" for i in self.unchanged]
        out += [f"superseded {i.source} ({i.student}/{i.lesson}): {i.why}" for i in self.superseded]
        out += [f"KEPT BOTH {who(i)}: {i.why}" for i in self.kept_both]
        out += [f"UNREADABLE {who(i)}: placed anyway, grading will report it: {i.why}" for i in self.unreadable]
        out += [f"NOT A NOTEBOOK {who(i)}: {i.why}" for i in self.not_notebooks]
        out += [f"also handed in {who(i)}: {i.why}" for i in self.also]
        out += [f"REFUSED {who(i)}: {i.why}" for i in self.refused]
        out += [f"skipped {i.source}: {i.why}" for i in self.skipped]
        out += [f"NOT PLACED {i.source}: {i.why}" for i in self.unplaced]
        out += [f"CONFLICT {who(i)}: {i.why}" for i in self.conflicts]
        out += [f"TIME NOT READ {i.source}: {i.why}" for i in self.unread_times]
        out += [f"TIME NOT TRUSTED {who(i)}: {i.why}" for i in self.distrusted]
        out += [f"missing {student}/{lesson}: on the roster, no submission" for student, lesson in self.missing]
        return out
