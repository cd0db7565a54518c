"""A throwaway class hub for tests, brought up as an instructor would: `make hub`, as root, in a fresh clone.

`class_hub` clones this checkout (its committed state) into a temporary folder and runs `make hub`
there in the foreground, with settings any instructor could give it: user names no one else uses, a
free port on loopback, a temporary exchange, state and grading socket, and the environments' prefix
the tests share (tests/shared_student_env.py, built as `make hub` builds them). `make hub` makes the
accounts (their new passwords are read where it keeps them), the exchange, the course directory, and
starts JupyterHub. On the way out the hub is stopped as Ctrl-C stops it (which stops every user's
server), what is left of the accounts' own processes is ended by their ids, and the accounts are
deleted with their homes.
"""
import dataclasses
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from contextlib import contextmanager
from dataclasses import dataclass

from autograder.grading.kernels import cgroups
from conftest import ROOT
from system_accounts import remove_account

from .jupyterlab_server import free_port

sys.path.insert(0, os.path.join(ROOT, "hub"))
import classroom  # noqa: E402

HUB = os.path.join(ROOT, "hub")


def cannot_make_users() -> str | None:
    """Why this machine cannot run a class hub test, or None."""
    if not sys.platform.startswith("linux"):
        return "the class hub needs Linux accounts"
    if os.geteuid() != 0:
        return "making system accounts (useradd) and starting servers as them needs root"
    for tool in ("useradd", "userdel", "chpasswd", "su", "git", "make", "npm"):
        if not shutil.which(tool):
            return f"{tool} is not installed" + (" (apt-get install npm: the hub's proxy)" if tool == "npm" else "")
    return None


@dataclass(frozen=True)
class RunningHub:
    url: str
    room: classroom.Classroom
    passwords: dict[str, str]
    log_path: str
    checkout: str

    def run_as(self, user: str, command: str, timeout: float = 600) -> subprocess.CompletedProcess:
        """``command`` in ``user``'s own login shell (su -l): their account, groups, profile and PATH."""
        return subprocess.run(["su", "-l", user, "-c", command], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL)

    def log(self, characters: int = 6000) -> str:
        with open(self.log_path, errors="replace") as handle:
            return handle.read()[-characters:]


def _wait_until_up(url: str, process: subprocess.Popen, log_path: str, timeout: float = 900) -> None:
    """Until the hub answers: `make hub` may first install the proxy and environments' changes."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"make hub exited with code {process.returncode}; its output:\n{_tail(log_path)}")
        try:
            with urllib.request.urlopen(f"{url}hub/api", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    raise TimeoutError(f"the hub did not answer within {timeout:.0f} s; make hub's output:\n{_tail(log_path)}")


def _tail(path: str, lines: int = 80) -> str:
    with open(path, errors="replace") as handle:
        return "".join(handle.readlines()[-lines:])


def _stop(process: subprocess.Popen) -> None:
    """Ctrl-C, as in the terminal that runs `make hub`: to make and JupyterHub, which stops every server."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGINT)
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)


def _passwords(state: str, names: list[str]) -> dict[str, str]:
    """The new accounts' passwords, where `make hub` keeps them for the instructor (mode 600)."""
    with open(os.path.join(state, "new-passwords.txt"), encoding="utf-8") as handle:
        found = dict(line.split() for line in handle if line.strip())
    return {name: found[name] for name in names}


@contextmanager
def class_hub(prefix: str, students: int = 2, **settings: str):
    """Yields a RunningHub brought up by `make hub` with one instructor and ``students`` students.
    ``settings``: more of make hub's environment settings (AUTOGRAD_HUB_MEMORY=..., ...)."""
    tag = secrets.token_hex(3)
    names = [f"agi{tag}"] + [f"ags{tag}{n}" for n in range(1, students + 1)]
    work = tempfile.mkdtemp(prefix="autograd-course-hub-")
    os.chmod(work, 0o711)
    checkout = os.path.join(work, "autograd-course")
    subprocess.run(["git", "clone", "--quiet", "--no-hardlinks", ROOT, checkout], check=True)
    profile_existed = os.path.exists(classroom.PROFILE)
    process = None
    try:
        port = free_port()
        env = {**{k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "IPYTHON", "MPL", "AUTOGRAD_",
                                                                             "PYTEST", "VIRTUAL_ENV", "MAKE"))},
               "AUTOGRAD_HUB_INSTRUCTOR": names[0], "AUTOGRAD_HUB_STUDENTS": " ".join(names[1:]),
               "AUTOGRAD_HUB_PORT": str(port), "AUTOGRAD_COURSE_EXCHANGE": os.path.join(work, "exchange"),
               "AUTOGRAD_HUB_GRADING_SOCKET": os.path.join(work, "grading", "grading.sock"), **settings}
        state = os.path.join(work, "state")
        log_path = os.path.join(work, "make-hub.log")
        with open(log_path, "w") as log:
            process = subprocess.Popen(["make", "hub", f"HUB_PREFIX={prefix}", f"HUB_STATE={state}"], cwd=checkout,
                                       env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                       start_new_session=True)
        url = f"http://127.0.0.1:{port}/"
        _wait_until_up(url, process, log_path)
        room = dataclasses.replace(classroom.Classroom.from_environment({**env, "AUTOGRAD_HUB_PREFIX": prefix,
                                                                         "AUTOGRAD_HUB_STATE": state}),
                                   exchange=env["AUTOGRAD_COURSE_EXCHANGE"], checkout=checkout)
        yield RunningHub(url, room, _passwords(state, names), log_path, checkout)
    finally:
        if process is not None:
            _stop(process)
        for name in names:
            remove_account(name)
            if cgroups.version():  # a server's control group, if the hub could not remove it
                cgroups.remove(cgroups.paths(cgroups.version(), f"hub-{name}"))
        if not profile_existed and os.path.exists(classroom.PROFILE):
            os.unlink(classroom.PROFILE)
        shutil.rmtree(work, ignore_errors=True)


