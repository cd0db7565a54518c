"""Open the nbgrader course directory at a given root with its nbgrader_config.py.

Everything that drives nbgrader goes through here, so tests can point it at a temporary copy.
"""
import glob
import os
import sys

from nbgrader.apps import NbGraderAPI
from nbgrader.coursedir import CourseDirectory
from traitlets.config.loader import PyFileConfigLoader


def load_config(root: str):
    config = PyFileConfigLoader("nbgrader_config.py", path=root).load_config()
    config.CourseDirectory.root = os.path.abspath(root)
    return config


def _tools_on_path() -> None:
    """nbgrader's gradebook runs the ``alembic`` command, installed beside this Python."""
    tools = os.path.dirname(sys.executable)
    if tools not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = tools + os.pathsep + os.environ.get("PATH", "")


def open_api(root: str) -> NbGraderAPI:
    _tools_on_path()
    config = load_config(root)
    return NbGraderAPI(coursedir=CourseDirectory(config=config), config=config)


def assignments(root: str) -> list[str]:
    """Assignment folders in source/, in course order (their names start with the lesson number)."""
    return sorted(os.path.basename(os.path.dirname(p))
                  for p in glob.glob(os.path.join(root, "source", "*", "*.ipynb")))


def submitted_students(root: str, assignment: str) -> list[str]:
    return sorted(os.path.basename(os.path.dirname(p))
                  for p in glob.glob(os.path.join(root, "submitted", "*", assignment)))
