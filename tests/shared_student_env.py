"""The student environment built from binder/ once per test run, shared by every test file that needs it.

Building it (torch, JupyterLab, nbgrader, the student package) takes minutes, so the first test worker
to ask builds it and the others wait for it: pytest-xdist's documented pattern, a file lock in the
folder all workers of one run share. It is built with jupyterhub too, for the hub test's single-user
servers. The folder is made traversable (not listable) by other users, whose servers run from it.
"""
import importlib.util
import os

from filelock import FileLock

from conftest import ROOT

_spec = importlib.util.spec_from_file_location("student_env", os.path.join(ROOT, "hub", "student_env.py"))
student_env = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(student_env)


def shared_student_env(tmp_path_factory) -> str:
    """The python of the run's student environment, built on first use."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    prefix = shared / "student-env"
    with FileLock(str(shared / "student-env.lock")):
        if not (prefix / ".built").exists():
            student_env.build(str(prefix), extra=(student_env.locked("jupyterhub"),))
            (prefix / ".built").touch()
    folder = str(prefix)
    while folder != "/":  # other accounts' servers run this python: let them pass through, not list
        mode = os.stat(folder).st_mode
        if not mode & 0o001:
            os.chmod(folder, mode | 0o001)
        folder = os.path.dirname(folder)
    return str(prefix / "bin" / "python")
