"""The class hub's two environments, built as `make hub` builds them, once, for every test that needs them.

Building them (torch, JupyterLab, nbgrader, the packages) takes minutes, so the first test worker to ask
builds them and the others wait: a file lock beside them. They live where `make hub` would put them for
this checkout's hub, in a prefix of its own under the system's temporary folder (mode 755, as /opt is),
and hub/hub_environments.py builds again only what changed since the last run: a fresh clone builds
them once; a developer's second run reuses them. They are built from the system's Python where there
is one (Debian's /usr/bin/python3.11, as `make hub` does), so every account can run them.
"""
import hashlib
import importlib.util
import os
import shutil
import sys
import tempfile

from filelock import FileLock

from conftest import ROOT

sys.path.insert(0, os.path.join(ROOT, "hub"))
_spec = importlib.util.spec_from_file_location("hub_environments", os.path.join(ROOT, "hub", "hub_environments.py"))
hub_environments = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(hub_environments)
student_env = hub_environments.student_env
PREFIX = os.path.join(tempfile.gettempdir(), "autograd-course-hub-envs-" + hashlib.sha256(ROOT.encode()).hexdigest()[:10])
SYSTEM_PYTHON = "/usr/bin/python3.11"


def shared_hub_prefix() -> str:
    """The prefix holding student-env/ and instructor-env/, each up to date with this checkout."""
    os.makedirs(PREFIX, exist_ok=True)
    with FileLock(os.path.join(tempfile.gettempdir(), os.path.basename(PREFIX) + ".lock")):
        python = SYSTEM_PYTHON if os.path.exists(SYSTEM_PYTHON) else shutil.which("python3.11") or sys.executable
        hub_environments.build(PREFIX, python)
    return PREFIX


def shared_student_env(tmp_path_factory=None) -> str:
    """The python of the students' environment (binder/'s declaration, with jupyterhub)."""
    return os.path.join(shared_hub_prefix(), hub_environments.STUDENT, "bin", "python")
