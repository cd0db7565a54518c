"""A grading task is data in, data out: it carries all a worker needs, so a worker needs no course.

In: the submission's files (capped in size), the course's configuration as the command loaded it,
and what nbgrader's sanitising steps read from the gradebook, the assignment's rows (its notebooks
and kernelspecs, its cells' sources and checksums), read once per batch by the command. Out: the
graded notebooks' text (``worker.Executed``). A worker writes those rows into a private SQLite
gradebook of its own, once per process, and nbgrader's own steps read them there as they would read
the course's gradebook: no course folder, no database server, no ``alembic`` on PATH.
"""
import atexit
import hashlib
import os
import pickle
import shutil
import tempfile
from dataclasses import dataclass, field

from .notebook_size import NotebookLimits
from .own_files import LeftOut, own_files

# what OverwriteKernelspec and OverwriteCells read, table by table, and how each row belongs to a lesson
ASSIGNMENT_TABLES = ("course", "assignment", "notebook", "base_cell", "grade_cells", "solution_cells",
                     "task_cells", "source_cell")


class SubmissionTooLarge(ValueError):
    """The submission's files are over the cap a task may carry."""


@dataclass(frozen=True)
class AssignmentRows:
    """One lesson's rows of the gradebook that the sanitising steps read, as plain values."""
    lesson: str
    rows: dict  # table name -> list of {column: value}
    digest: str = ""
    notebooks: tuple = ()  # the lesson's notebook names, as the gradebook knows them

    @classmethod
    def read(cls, db_url: str, lesson: str) -> "AssignmentRows":
        import sqlalchemy
        from nbgrader.api import Base
        tables = Base.metadata.tables
        engine = sqlalchemy.create_engine(db_url)
        try:
            with engine.connect() as connection:
                def rows(table, where):
                    return [dict(r) for r in connection.execute(sqlalchemy.select(table).where(where)).mappings()]
                assignment = rows(tables["assignment"], tables["assignment"].c.name == lesson)
                if not assignment:
                    raise LookupError(f"No assignment with ID '{lesson}' exists in the database: release it first")
                notebook = rows(tables["notebook"], tables["notebook"].c.assignment_id == assignment[0]["id"])
                notebook_ids = [n["id"] for n in notebook]
                base_cell = rows(tables["base_cell"], tables["base_cell"].c.notebook_id.in_(notebook_ids))
                cell_ids = [c["id"] for c in base_cell]
                found = {"course": rows(tables["course"], tables["course"].c.id == assignment[0]["course_id"]),
                         "assignment": assignment, "notebook": notebook, "base_cell": base_cell,
                         "source_cell": rows(tables["source_cell"], tables["source_cell"].c.notebook_id.in_(notebook_ids))}
                for kind in ("grade_cells", "solution_cells", "task_cells"):
                    found[kind] = rows(tables[kind], tables[kind].c.id.in_(cell_ids))
        finally:
            engine.dispose()
        digest = hashlib.sha256(repr(sorted(found.items())).encode()).hexdigest()[:16]
        return cls(lesson, found, digest, tuple(sorted(n["name"] for n in notebook)))

    def size(self) -> int:
        return len(pickle.dumps(self.rows))


_private_gradebooks: dict[str, str] = {}
_gradebooks_folder = {"folder": None}  # None: the system's temporary folder


def keep_gradebooks_in(folder: str) -> None:
    """Make this process's private gradebooks in ``folder``: a local pool's, removed with the pool, or
    a Dask worker's own folder. A local worker ends with ``os._exit`` and a Dask worker may be killed,
    so nothing either made in the system's /tmp would be removed."""
    _gradebooks_folder["folder"] = folder


def private_gradebook(assignment: AssignmentRows) -> str:
    """The URL of an SQLite gradebook holding ``assignment``'s rows, made once per process."""
    if assignment.digest not in _private_gradebooks:
        import sqlalchemy
        from nbgrader.api import Base
        folder = tempfile.mkdtemp(prefix="autograd-gradebook-", dir=_gradebooks_folder["folder"])
        if _gradebooks_folder["folder"] is None:  # the command's: gone when it ends
            atexit.register(shutil.rmtree, folder, True)
        url = f"sqlite:///{os.path.join(folder, f'{assignment.lesson}-{assignment.digest}.db')}"
        engine = sqlalchemy.create_engine(url)
        Base.metadata.create_all(engine)  # tables present: nbgrader's Gradebook stamps no alembic version
        with engine.begin() as connection:
            for table in ASSIGNMENT_TABLES:
                if assignment.rows.get(table):
                    connection.execute(Base.metadata.tables[table].insert(), assignment.rows[table])
        engine.dispose()
        _private_gradebooks[assignment.digest] = url
    return _private_gradebooks[assignment.digest]


@dataclass(frozen=True)
class Task:
    lesson: str
    student: str
    notebooks: dict  # notebook name -> the submitted file's bytes
    files: dict = field(default_factory=dict)  # every other file of the submission: relative path -> bytes
    assignment: AssignmentRows | None = None
    config: object = None  # the course's traitlets Config
    left_out: tuple = ()  # own_files.LeftOut: what of the submission's folder the task does not carry

    @property
    def job(self) -> tuple[str, str]:
        return self.lesson, self.student

    def digests(self) -> dict[str, str]:
        return {name: hashlib.sha256(data).hexdigest() for name, data in self.notebooks.items()}


def submission_files(folder: str, cap: int, top: str = "") -> tuple[dict[str, bytes], list[LeftOut]]:
    """The submission's own regular files (relative path -> bytes) and what was left out; over ``cap``
    bytes in all, refused. A link's target is not the student's to send (``own_files``)."""
    names, left = own_files(folder, top)
    found, total = {}, 0
    for relative in names:
        path = os.path.join(folder, relative)
        total += os.path.getsize(path)
        if total > cap:
            raise SubmissionTooLarge(f"the submission's files are over {cap / 1024**2:g} MiB "
                                     "(GradingBatch.max_submission_bytes)")
        with open(path, "rb") as handle:
            found[relative] = handle.read()
    return found, left


def make_task(course, assignment: AssignmentRows, student: str, cap: int) -> Task:
    """The task for one submission: its files, split into the lesson's notebooks and the rest."""
    files, left = submission_files(course.path("submitted", student, assignment.lesson), cap, top=course.root)
    notebooks = {path[:-len(".ipynb")]: files.pop(path) for path in list(files)
                 if path.endswith(".ipynb") and os.sep not in path and path[:-len(".ipynb")] in assignment.notebooks}
    limits = NotebookLimits(config=course.config)
    for name, data in notebooks.items():
        if why := limits.refusal(data):
            raise SubmissionTooLarge(f"{name}.ipynb: {why}")
    return Task(assignment.lesson, student, notebooks, files, assignment, course.config, tuple(left))
