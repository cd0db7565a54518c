"""The nbgrader course directory, opened once per command.

Everything that drives nbgrader goes through here, so tests can point it at a temporary copy, and
one command reads the configuration and opens nbgrader's API once, not once per step.
"""
import glob
import re
import os
import sys
from functools import cached_property
from typing import TYPE_CHECKING

from traitlets.config.loader import PyFileConfigLoader

if TYPE_CHECKING:
    from nbgrader.apps import NbGraderAPI


def load_config(root: str):
    """The course's nbgrader_config.py; a module beside it (a late-penalty plugin named by
    ``c.AssignLatePenalties.plugin_class = "mycourse.PerDayPenalty"``) is importable, as the guide says."""
    config = PyFileConfigLoader("nbgrader_config.py", path=root).load_config()
    config.CourseDirectory.root = os.path.abspath(root)
    if config.CourseDirectory.root not in sys.path:
        sys.path.append(config.CourseDirectory.root)
    return config


def database_url(config, root: str) -> str:
    """``c.CourseDirectory.db_url``, or nbgrader's default: ``gradebook.db`` in the course directory."""
    return config.CourseDirectory.get("db_url") or f"sqlite:///{os.path.abspath(os.path.join(root, 'gradebook.db'))}"


def _tools_on_path() -> None:
    """nbgrader's gradebook runs the ``alembic`` command, installed beside this Python."""
    tools = os.path.dirname(sys.executable)
    if tools not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = tools + os.pathsep + os.environ.get("PATH", "")


def open_api(root: str, config=None) -> "NbGraderAPI":
    from nbgrader.apps import NbGraderAPI  # here, not above: a command that needs no API starts faster
    from nbgrader.coursedir import CourseDirectory

    from .grading.batch.own_files import guard_nbgrader
    guard_nbgrader()
    _tools_on_path()
    config = config or load_config(root)
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def assignments(root: str) -> list[str]:
    """Assignment folders in source/, in course order (their names start with the lesson number)."""
    return sorted(os.path.basename(os.path.dirname(p))
                  for p in glob.glob(os.path.join(root, "source", "*", "*.ipynb")))


def submitted_students(root: str, assignment: str) -> list[str]:
    return sorted(os.path.basename(os.path.dirname(p))
                  for p in glob.glob(os.path.join(root, "submitted", "*", assignment)))


class Course:
    """One course directory: its configuration, nbgrader's API and its lessons, each made once."""

    def __init__(self, root: str = "."):
        self.root = os.path.abspath(root)

    @cached_property
    def config(self):
        return load_config(self.root)

    @cached_property
    def api(self) -> "NbGraderAPI":
        return open_api(self.root, self.config)

    @cached_property
    def lessons(self) -> list[str]:
        return assignments(self.root)

    def students(self, lesson: str) -> list[str]:
        return submitted_students(self.root, lesson)

    def path(self, *parts: str) -> str:
        return os.path.join(self.root, *parts)

    @property
    def db_url(self) -> str:
        """The gradebook's URL as nbgrader's CourseDirectory computes it, without importing nbgrader."""
        return database_url(self.config, self.root)


EXCEPTION_LINE = re.compile(r"^\s*(?:[\w]+\.)*(\w*(?:Error|Exception|Exit)): (.+)$")


def root_cause(result: dict) -> str:
    """The last exception nbgrader logged before its summary ("NotJSONError: ...")."""
    text = f"{result.get('log') or ''}\n{result.get('error') or ''}"
    causes = [f"{m.group(1)}: {m.group(2).strip()}" for m in map(EXCEPTION_LINE.match, text.splitlines())
              if m and m.group(1) != "NbGraderException"]
    return causes[-1] if causes else (text.strip().splitlines() or ["unknown error"])[-1].strip()
