"""Uploads that are not the graded notebook, kept so that nothing a student handed in is lost.

A PDF or HTML export instead of the notebook, a second notebook beside it, an older copy that
differs from the one in ``submitted/``: each is moved to ``ungraded/<student>/<lesson>/uploads/``
under the name the student gave it (made safe, and numbered when another file has that name), with
one line in ``uploads.txt`` saying what it is and why it was not graded. ``status.py`` adds those lines
to the student's status, so every export, the report and the feedback page say them.
"""
import os
import re
import unicodedata
from typing import NamedTuple

from . import staged_files
from ..records.ledger import LEDGER, NOTES, notes
from .staged_files import Staged

KINDS = {".pdf": "a PDF", ".html": "an HTML page", ".htm": "an HTML page", ".py": "a Python file",
         ".docx": "a Word document", ".zip": "a zip", ".txt": "a text file", ".md": "a Markdown file",
         ".png": "an image", ".jpg": "an image", ".jpeg": "an image", ".ipynb": "a notebook"}
LONGEST_NAME = 120  # characters of a kept file's name (a file system allows 255 bytes)


class Upload(NamedTuple):
    filename: str            # as the student named it
    staged: Staged | None    # None: it was not read (too big, refused)
    why: str
    note: bool = True        # said with the student's status


def kind(filename: str) -> str:
    """'report.pdf' -> 'a PDF'; an extension not listed is named as it is."""
    extension = os.path.splitext(filename)[1].lower()
    if len(extension) > 12 or not extension[1:].isalnum():
        return "a file with no extension" if not extension else "a file"
    return KINDS.get(extension, f"a {extension[1:]} file")


def _folder(root: str, student: str, lesson: str) -> str:
    return os.path.join(root, LEDGER, student, lesson, "uploads")


def safe_name(filename: str) -> str:
    """The last part of ``filename`` with only letters, digits, spaces and ``.()-_`` left, not too long."""
    name = unicodedata.normalize("NFC", filename.rsplit("/", 1)[-1])  # an accent stays a letter, not "_"
    name = re.sub(r"[^\w .()-]+", "_", name).strip(" .") or "upload"
    stem, extension = os.path.splitext(name)
    return name if len(name) <= LONGEST_NAME else stem[:LONGEST_NAME - len(extension[:12])] + extension[:12]


def keep(root: str, student: str, lesson: str, kept: list[Upload]) -> list[str]:
    """Move each upload aside (unless it was not read) and say why with the student's status (``note``);
    return where each is, relative to the course. The folder and the notes are read once."""
    folder = _folder(root, student, lesson)
    os.makedirs(folder, exist_ok=True)
    names = _Names(folder)
    said = set(notes(root, student, lesson))
    where, lines = [], []
    for upload in kept:
        name = names.free(safe_name(upload.filename), upload.staged)
        if upload.staged is not None:
            staged_files.move(upload.staged, os.path.join(folder, name))
        line = f"{name}: {upload.why}"
        if upload.note and line not in said:
            said.add(line)
            lines.append(line + "\n")
        where.append(os.path.relpath(os.path.join(folder, name), root))
    if lines:
        with open(os.path.join(os.path.dirname(folder), NOTES), "a", encoding="utf-8") as handle:
            handle.writelines(lines)
    return where


class _Names:
    """The names in one uploads/ folder, so that no kept file takes another's (in any case of letters)."""

    def __init__(self, folder: str):
        self.folder = folder
        self.present = {name.lower() for name in os.listdir(folder)}
        self.taken: set[str] = set()
        self.tried: dict[str, int] = {}  # name -> the last number tried for it

    def free(self, name: str, staged: Staged | None) -> str:
        """``name``, or ``name (2)``, ...: the first no other file has; the same file keeps its name."""
        stem, extension = os.path.splitext(name)
        number = self.tried.get(name.lower(), 0)
        while True:
            number += 1
            candidate = name if number == 1 else f"{stem} ({number}){extension}"
            key = candidate.lower()
            if key in self.taken:
                continue
            if key not in self.present or self._same(candidate, staged):
                self.tried[name.lower()] = number
                self.taken.add(key)
                return candidate

    def _same(self, name: str, staged: Staged | None) -> bool:
        path = os.path.join(self.folder, name)
        return (staged is not None and os.path.isfile(path) and not os.path.islink(path)
                and staged_files.digest_of(path) == staged.digest)
