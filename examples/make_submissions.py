"""Make a small class's Canvas downloads to try the grading walk-through and the whole week on.

Writes ``examples/canvas_download.zip`` (Canvas "Download Submissions" naming, see
``autograder/workflow/collect/lms/canvas.py``), ``examples/canvas_download_2.zip`` (the same assignment
downloaded again later in the week: a resubmission, a group's notebook, one with deleted cells and a
broken file besides), ``examples/roster.csv`` (with a group), ``examples/extensions.csv`` (the course's
extensions) and ``examples/canvas_gradebook.csv`` (Canvas's Grades > Export of the class, for
``export --into``). The submissions are
built from this course's own ``release/`` notebooks, answered with the solutions from ``source/`` or
with wrong answers from ``tests/wrong_submissions/``, so their scores are known before grading:

    .venv/bin/python examples/make_submissions.py [--root COURSE] [--out DIR]

Run it again after changing a lesson. The output is byte-for-byte reproducible (fixed zip dates).
"""
import argparse
import csv
import io
import os
import sys
import zipfile
from dataclasses import dataclass

import nbformat

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))  # the course's packages, when run as a script from anywhere

from autograder.authoring.wrong_answers import build_submission, load_corpus, solution_cells  # noqa: E402


@dataclass(frozen=True)
class Student:
    student_id: str   # the folder under submitted/ and the gradebook id
    name: str
    canvas_id: int
    section: str = "Lab A"
    group: str = ""

    @property
    def canvas_name(self) -> str:
        """Canvas's file-name prefix: last name then first, lower case, nothing between."""
        first, last = self.name.lower().split(" ", 1)
        return (last + first).replace(" ", "")

    @property
    def login_id(self) -> str:
        return self.student_id

    @property
    def email(self) -> str:
        return f"{self.student_id}@example.edu"


@dataclass(frozen=True)
class Upload:
    """One file in the download: whose, for which lesson, what it holds and how Canvas named it."""
    student: str
    lesson: str
    answers: str             # "solution", "blank", or "wrong:NAME[,NAME]" (files of tests/wrong_submissions/)
    submission_id: int       # the file's Canvas attachment id (lib/content_zipper.rb): a later upload has a larger one
    late: bool = False
    reupload: int = 0        # Canvas appends -1, -2 to a file uploaded again under the same name
    written_answer: bool = False  # also fill the written answer (graded by hand later)
    filename: str = ""       # what the student uploaded, when it is not the lesson's notebook
    text: str = ""           # the contents of such a file
    deleted: tuple[str, ...] = ()  # cells (grade ids) the student deleted
    download: int = 1        # first in the download of this number (2: the later one)


CLASS = [
    Student("alovelace", "Ada Lovelace", 48211),
    Student("bbabbage", "Charles Babbage", 48212),
    Student("cshannon", "Claude Shannon", 48213),
    Student("ghopper", "Grace Hopper", 48214, "Lab B"),
    Student("aturing", "Alan Turing", 48215, "Lab B"),
    Student("enoether", "Emmy Noether", 48216, "Lab B"),
    Student("kjohnson", "Katherine Johnson", 48217, "Lab B"),  # on the roster, submits nothing
    Student("dknuth", "Donald Knuth", 48218, "Lab A", "Team Apollo"),       # hands in for the group ...
    Student("mhamilton", "Margaret Hamilton", 48219, "Lab A", "Team Apollo"),  # ... and so for her
    Student("rfeynman", "Richard Feynman", 48220, "Lab A"),
]

UPLOADS = [
    Upload("alovelace", "02_backward", "solution", 1177301, written_answer=True),
    Upload("bbabbage", "02_backward", "blank", 1177302),
    Upload("cshannon", "02_backward", "wrong:forgot_backward", 1177303),
    Upload("ghopper", "02_backward", "wrong:no_retain_graph,two_backward_calls", 1177304),
    Upload("aturing", "02_backward", "blank", 1177305),                                # first attempt ...
    Upload("aturing", "02_backward", "solution", 1177399, late=True, reupload=1),      # ... and a late one
    Upload("enoether", "02_backward", "wrong:hvp_forgot_create_graph", 1177306, written_answer=True),
    Upload("enoether", "02_backward", "", 1177306, filename="scratch_work.txt",
           text="tried create_graph=False first, it did not work\n"),
    Upload("alovelace", "01_graph", "solution", 1178301),
    Upload("cshannon", "01_graph", "wrong:tree_walk", 1178303),
    # later in the week, after the grades went back: a late resubmission, a group's notebook, an answer
    # deleted with its check, and a notebook cut short by a failed upload
    Upload("cshannon", "02_backward", "solution", 1177350, late=True, download=2),
    Upload("dknuth", "02_backward", "solution", 1177320, download=2),
    Upload("ghopper", "01_graph", "solution", 1178304, deleted=("leaf_from_list", "test_leaf_from_list"), download=2),
    Upload("rfeynman", "01_graph", "", 1178320, filename="01_graph.ipynb", download=2,
           text='{"cells": [{"cell_type": "code", "source": "def leaf_from_list(values):'),
]
EXTENSIONS = [("ghopper", "01_graph", "2026-03-04 12:00")]  # the course's own file: student, lesson, due
DOWNLOADS = {1: "canvas_download.zip", 2: "canvas_download_2.zip"}
CANVAS_ASSIGNMENT_IDS = {"01_graph": 81001, "02_backward": 81002}  # in canvas_gradebook.csv's headers

ZIP_DATE = (2026, 3, 2, 9, 0, 0)  # every entry the same date: the zip is reproducible


def notebook_for(upload: Upload, root: str, corpus) -> nbformat.NotebookNode:
    name = f"{upload.lesson}.ipynb"
    source = nbformat.read(os.path.join(root, "source", upload.lesson, name), as_version=4)
    release = nbformat.read(os.path.join(root, "release", upload.lesson, name), as_version=4)
    solutions = solution_cells(source)
    if upload.answers == "blank":
        answers = {}
    elif upload.answers == "solution":
        answers = dict(solutions)
    elif upload.answers.startswith("wrong:"):
        wrong = [corpus[(upload.lesson, n)] for n in upload.answers[len("wrong:"):].split(",")]
        answers = {**solutions, **{w.replaces: w.code for w in wrong}}
    else:
        raise ValueError(f"unknown answers {upload.answers!r}")
    if upload.written_answer:
        answers |= {c.id: c.source for c in source.cells
                    if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("solution")}
    notebook = without_outputs(build_submission(release, answers))
    notebook.cells = [c for c in notebook.cells if c.metadata.get("nbgrader", {}).get("grade_id") not in upload.deleted]
    return notebook


def without_outputs(notebook):
    """Outputs and widget state only make the example big: grading clears and recomputes them."""
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    return notebook


def canvas_file_name(student: Student, upload: Upload) -> str:
    uploaded = upload.filename or f"{upload.lesson}.ipynb"
    if upload.reupload:
        stem, extension = os.path.splitext(uploaded)
        uploaded = f"{stem}-{upload.reupload}{extension}"
    late = "_LATE" if upload.late else ""
    return f"{student.canvas_name}{late}_{student.canvas_id}_{upload.submission_id}_{uploaded}"


def write_zip(root: str, path: str, download: int = 1) -> list[str]:
    """The download of this number: every upload made by then (Canvas keeps them all)."""
    students = {s.student_id: s for s in CLASS}
    corpus = {(a.assignment, a.name): a for a in load_corpus(os.path.join(root, "tests", "wrong_submissions"))}
    names = []
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for upload in (u for u in UPLOADS if u.download <= download):
            name = canvas_file_name(students[upload.student], upload)
            data = upload.text if upload.filename else nbformat.writes(notebook_for(upload, root, corpus))
            archive.writestr(zipfile.ZipInfo(name, ZIP_DATE), data.encode("utf-8"), zipfile.ZIP_DEFLATED)
            names.append(name)
    return names


ROSTER_COLUMNS = ["student_id", "name", "canvas_id", "login_id", "email", "section", "group"]


def _write_csv(path: str, rows: list[list]) -> None:
    text = io.StringIO()
    csv.writer(text, lineterminator="\n").writerows(rows)
    with open(path, "w", encoding="utf-8", newline="") as handle:
        handle.write(text.getvalue())


def write_roster(path: str) -> None:
    """The roster both ``collect`` (canvas_id, name, group) and ``export`` (login_id, section) read."""
    _write_csv(path, [ROSTER_COLUMNS] + [[s.student_id, s.name, s.canvas_id, s.login_id, s.email, s.section, s.group]
                                         for s in CLASS])


def write_extensions(path: str) -> None:
    """The course's extensions file (c.LateWork.extensions_file): student_id, lesson, due."""
    _write_csv(path, [["student_id", "lesson", "due"]] + [list(row) for row in EXTENSIONS])


def lesson_points(root: str, lesson: str) -> float:
    source = nbformat.read(os.path.join(root, "source", lesson, f"{lesson}.ipynb"), as_version=4)
    return sum(c.metadata.get("nbgrader", {}).get("points", 0) for c in source.cells
               if c.metadata.get("nbgrader", {}).get("grade"))


def write_canvas_gradebook(root: str, path: str) -> None:
    """Canvas's Grades > Export as it writes it: Student, ID, SIS User ID, SIS Login ID, Section, one
    "Title (id)" column per assignment, a Points Possible row, then a row per student (the test student
    too), grades blank: what ``export --into`` fills."""
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    header += [f"{lesson} ({number})" for lesson, number in CANVAS_ASSIGNMENT_IDS.items()]
    header += ["Current Score", "Final Score"]
    rows = [header, ["    Points Possible", "", "", "", ""] + [f"{lesson_points(root, lesson):g}" for lesson in
                                                             CANVAS_ASSIGNMENT_IDS] + ["(read only)", "(read only)"]]
    for s in sorted(CLASS, key=lambda s: s.canvas_name):
        last_first = ", ".join(reversed(s.name.split(" ", 1)))
        rows.append([last_first, s.canvas_id, s.student_id, s.login_id, s.section, "", "", "", ""])
    rows.append(["Student, Test", 48299, "", "", "Lab A", "", "", "", ""])
    _write_csv(path, rows)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=os.path.dirname(HERE), help="the course directory (default: this one)")
    parser.add_argument("--out", default=None, help="where to write (default: ROOT/examples)")
    args = parser.parse_args(argv)
    out = args.out or os.path.join(args.root, "examples")
    os.makedirs(out, exist_ok=True)
    for number, name in DOWNLOADS.items():
        files = write_zip(args.root, os.path.join(out, name), number)
        print(f"wrote {len(files)} files to {os.path.join(out, name)}")
    write_roster(os.path.join(out, "roster.csv"))
    write_extensions(os.path.join(out, "extensions.csv"))
    write_canvas_gradebook(args.root, os.path.join(out, "canvas_gradebook.csv"))
    print(f"wrote {len(CLASS)} students to {os.path.join(out, 'roster.csv')}, {len(EXTENSIONS)} extension(s) to "
          f"{os.path.join(out, 'extensions.csv')} and Canvas's gradebook to {os.path.join(out, 'canvas_gradebook.csv')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
