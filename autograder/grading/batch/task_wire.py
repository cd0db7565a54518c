"""A grading task and its result as plain JSON, checked on arrival: what crosses to the grading service.

The grading service (``grading_service.py``) runs as root and grades for an instructor who is not.
What the instructor's command sends it is therefore input, like a submission: no pickle (which would
run the sender's code as root), names that cannot leave the service's scratch folder, a size cap,
gradebook rows only of the tables and columns nbgrader's sanitising steps read, and no configuration
at all (the service grades with its own). Its digest is computed here, never taken from the sender,
so one sender's rows cannot stand in for another's in a worker's cache of private gradebooks.
"""
import base64
import dataclasses
import datetime
import hashlib
import json
import re

from .tasks import ASSIGNMENT_TABLES, AssignmentRows, Task
from .worker import Executed

# a lesson, student or notebook name: one path part, no dot first, nothing a shell or a path reads twice
NAME = re.compile(r"[A-Za-z0-9_@+-][A-Za-z0-9_.@+-]{0,127}")
MAX_FILES = 1000
MAX_DEPTH = 16


class BadTask(ValueError):
    """A request that is not a well-formed task: refused whole, with the reason."""


def _bytes(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def _value(value):
    if isinstance(value, datetime.datetime):
        return {"$datetime": value.isoformat()}
    return value


def task_to_json(task: Task) -> bytes:
    """The task as the instructor's command sends it: everything but its configuration."""
    rows = task.assignment.rows if task.assignment else {}
    return json.dumps({
        "lesson": task.lesson, "student": task.student,
        "notebooks": {name: _bytes(data) for name, data in task.notebooks.items()},
        "files": {path: _bytes(data) for path, data in task.files.items()},
        "rows": {table: [{k: _value(v) for k, v in row.items()} for row in found] for table, found in rows.items()},
        "notebook_names": list(task.assignment.notebooks) if task.assignment else [],
    }).encode("utf-8")


def _name(value, what: str) -> str:
    if not isinstance(value, str) or not NAME.fullmatch(value):
        raise BadTask(f"{what} {value!r:.80} is not a plain name")
    return value


def _relative_path(value) -> str:
    parts = value.split("/") if isinstance(value, str) else []
    if not parts or len(parts) > MAX_DEPTH or any(p in ("", ".", "..") or "\0" in p or "\\" in p for p in parts):
        raise BadTask(f"file name {value!r:.80} is not a relative path inside the submission")
    return value


def _decoded(value, what: str) -> bytes:
    try:
        return base64.b64decode(value, validate=True)
    except (TypeError, ValueError):
        raise BadTask(f"{what} is not base64") from None


def _row_value(value, column: str):
    if isinstance(value, dict) and set(value) == {"$datetime"}:
        try:
            return datetime.datetime.fromisoformat(value["$datetime"])
        except (TypeError, ValueError):
            raise BadTask(f"column {column}: not a date") from None
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise BadTask(f"column {column}: a {type(value).__name__} is not a gradebook value")


def _rows(found, lesson: str) -> dict:
    from nbgrader.api import Base
    if not isinstance(found, dict) or not set(found) <= set(ASSIGNMENT_TABLES):
        raise BadTask("gradebook rows of tables other than the assignment's")
    rows = {}
    for table, listed in found.items():
        columns = set(Base.metadata.tables[table].columns.keys())
        if not isinstance(listed, list) or not all(isinstance(r, dict) and set(r) <= columns for r in listed):
            raise BadTask(f"gradebook rows of {table} with columns it does not have")
        rows[table] = [{k: _row_value(v, f"{table}.{k}") for k, v in row.items()} for row in listed]
    if [a.get("name") for a in rows.get("assignment", [])] != [lesson]:
        raise BadTask(f"the gradebook rows are not lesson {lesson}'s")
    return rows


def task_from_json(text: bytes, config, max_bytes: int) -> Task:
    """The task a request describes, graded with ``config`` (the service's own); ``BadTask`` if it is not one."""
    try:
        sent = json.loads(text)
    except (UnicodeDecodeError, ValueError, RecursionError):
        raise BadTask("the request is not JSON") from None
    if not isinstance(sent, dict):
        raise BadTask("the request is not a task")
    lesson, student = _name(sent.get("lesson"), "lesson"), _name(sent.get("student"), "student")
    notebooks = {_name(n, "notebook"): _decoded(d, f"notebook {n}") for n, d in dict(sent.get("notebooks") or {}).items()}
    files_sent = dict(sent.get("files") or {})
    if len(files_sent) > MAX_FILES:
        raise BadTask(f"more than {MAX_FILES} files")
    files = {_relative_path(p): _decoded(d, f"file {p}") for p, d in files_sent.items()}
    if sum(map(len, notebooks.values())) + sum(map(len, files.values())) > max_bytes:
        raise BadTask(f"the submission's files are over {max_bytes / 1024**2:g} MiB")
    rows = _rows(sent.get("rows"), lesson)
    names = tuple(sorted(_name(n, "notebook") for n in sent.get("notebook_names") or []))
    digest = hashlib.sha256(repr(sorted(rows.items())).encode()).hexdigest()[:16]
    return Task(lesson, student, notebooks, files, AssignmentRows(lesson, rows, digest, names), config)


def executed_as_data(result: Executed) -> dict:
    return dataclasses.asdict(result)


def executed_from_data(data: dict) -> Executed:
    return Executed(**data)
