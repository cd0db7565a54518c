"""Uploads that are not the graded notebook, kept so that nothing a student handed in is lost.

A PDF or HTML export instead of the notebook, a second notebook beside it, an older copy that
differs from the one in ``submitted/``: each is written to ``ungraded/<student>/<lesson>/uploads/``
under the name the student gave it, with one line in ``uploads.txt`` saying what it is and why it
was not graded. ``status.py`` adds those lines to the student's status, so every export, the
report and the feedback page say them.
"""
import os
import re

from .ledger import LEDGER

NOTES = "uploads.txt"
KINDS = {".pdf": "a PDF", ".html": "an HTML page", ".htm": "an HTML page", ".py": "a Python file",
         ".docx": "a Word document", ".zip": "a zip", ".txt": "a text file", ".md": "a Markdown file",
         ".png": "an image", ".jpg": "an image", ".jpeg": "an image", ".ipynb": "a notebook"}


def kind(filename: str) -> str:
    """'report.pdf' -> 'a PDF'; an extension not listed is named as it is."""
    extension = os.path.splitext(filename)[1].lower()
    return KINDS.get(extension, f"a {extension[1:]} file" if extension else "a file with no extension")


def _folder(root: str, student: str, lesson: str) -> str:
    return os.path.join(root, LEDGER, student, lesson, "uploads")


def keep(root: str, student: str, lesson: str, filename: str, data: bytes | None, why: str, note: bool = True) -> str:
    """Write the upload aside (unless it was too big to read) and, with ``note``, say why with the
    student's status; return where it is."""
    folder = _folder(root, student, lesson)
    os.makedirs(folder, exist_ok=True)
    name = re.sub(r"[^\w .()-]+", "_", filename.rsplit("/", 1)[-1]).strip(" .") or "upload"
    path = os.path.join(folder, name)
    if data is not None:
        with open(path + ".partial", "wb") as handle:
            handle.write(data)
        os.replace(path + ".partial", path)
    line = f"{name}: {why}"
    if note and line not in notes(root, student, lesson):
        with open(os.path.join(os.path.dirname(folder), NOTES), "a", encoding="utf-8") as handle:
            handle.write(line + "\n")
    return os.path.relpath(path, root)


def notes(root: str, student: str, lesson: str) -> list[str]:
    """One line per upload kept aside for this student and lesson."""
    path = os.path.join(root, LEDGER, student, lesson, NOTES)
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]
