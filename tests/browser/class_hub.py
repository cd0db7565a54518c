"""A throwaway class hub for tests: real system accounts, the real hub config, loopback only.

`class_hub` makes an instructor and students with useradd (names no one else uses, random
passwords), a temporary exchange and hub state, the instructor's course directory as `make hub`
makes it (hub/classroom.py), and starts JupyterHub with hub/jupyterhub_config.py. On the way out it
stops the hub (which stops every user's server), ends what is left of the accounts' own processes by
their ids, and deletes the accounts with their homes.
"""
import os
import pwd
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

from conftest import ROOT

from .jupyterlab_server import free_port

sys.path.insert(0, os.path.join(ROOT, "hub"))
import classroom  # noqa: E402

HUB = os.path.join(ROOT, "hub")
PROXY = os.path.join(HUB, "node_modules", ".bin", "configurable-http-proxy")


def cannot_make_users() -> str | None:
    """Why this machine cannot run a class hub test, or None."""
    if not sys.platform.startswith("linux"):
        return "the class hub needs Linux accounts"
    if os.geteuid() != 0:
        return "making system accounts (useradd) and starting servers as them needs root"
    for tool in ("useradd", "userdel", "chpasswd"):
        if not shutil.which(tool):
            return f"{tool} is not installed"
    if not os.path.exists(PROXY):
        return "the hub's proxy is not installed: run `make test` (npm ci in hub/)"
    return None


@dataclass(frozen=True)
class RunningHub:
    url: str
    room: classroom.Classroom
    passwords: dict[str, str]
    log_path: str

    def run_as(self, user: str, *command: str, cwd: str | None = None, timeout: float = 600,
               env: dict | None = None) -> subprocess.CompletedProcess:
        """A command as ``user`` (its uid, gid and groups), with a clean environment and its own home."""
        account = pwd.getpwnam(user)
        environment = {"HOME": account.pw_dir, "USER": user, "LOGNAME": user, "LANG": "C.UTF-8",
                       "PATH": f"{os.path.dirname(sys.executable)}:/usr/bin:/bin",
                       "AUTOGRAD_COURSE_EXCHANGE": self.room.exchange, **(env or {})}
        return subprocess.run(command, user=account.pw_uid, group=account.pw_gid, extra_groups=[],
                              cwd=cwd or account.pw_dir, env=environment, capture_output=True, text=True,
                              timeout=timeout)


def _make_account(name: str) -> str:
    subprocess.run([*classroom.USERADD, name], check=True, capture_output=True)
    password = secrets.token_urlsafe(12)
    subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True)
    return password


def _remove_account(name: str) -> None:
    try:
        uid = pwd.getpwnam(name).pw_uid
    except KeyError:
        return
    for _ in range(20):  # what the hub's shutdown left of this account's processes, by id
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit() and _owner(p) == uid]
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.2)
    _remove_files_in_tmp_of(uid)  # e.g. torch's cache folder: userdel removes only the home and mail
    subprocess.run(["userdel", "--remove", name], capture_output=True)


def _remove_files_in_tmp_of(uid: int) -> None:
    with os.scandir(tempfile.gettempdir()) as entries:
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                if entry.is_dir(follow_symlinks=False):
                    shutil.rmtree(entry.path, ignore_errors=True)
                else:
                    os.unlink(entry.path)
            except FileNotFoundError:
                pass


def _owner(pid: str) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except FileNotFoundError:
        return None


def _wait_until_up(url: str, process: subprocess.Popen, log_path: str, timeout: float = 90) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterHub exited with code {process.returncode}; log:\n{_tail(log_path)}")
        try:
            with urllib.request.urlopen(f"{url}hub/api", timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.5)
    raise TimeoutError(f"JupyterHub did not answer within {timeout:.0f} s; log:\n{_tail(log_path)}")


def _tail(path: str, lines: int = 60) -> str:
    with open(path, errors="replace") as handle:
        return "".join(handle.readlines()[-lines:])


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGINT)  # JupyterHub stops every user's server, then the proxy
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def python_reachable(*pythons: str):
    """Let every account pass through (x, never list) the folders on the way to these Pythons, for a while.

    The servers and the instructor's commands run them as other users; where one lives in root's home
    (pyenv in /root) or under pytest's private temporary folder, that folder is closed to them. Each
    mode is put back on the way out.
    """
    closed = {folder: os.stat(folder).st_mode for python in pythons
              for folder in classroom.closed_to_others(os.path.dirname(os.path.realpath(python)))}
    for folder, mode in closed.items():
        os.chmod(folder, mode | 0o001)
    try:
        yield
    finally:
        for folder, mode in closed.items():
            os.chmod(folder, mode & 0o7777)


@contextmanager
def class_hub(student_python: str, students: int = 2):
    """Yields a RunningHub with one instructor and ``students`` students, each with a password."""
    tag = secrets.token_hex(3)
    names = [f"agi{tag}"] + [f"ags{tag}{n}" for n in range(1, students + 1)]
    work = tempfile.mkdtemp(prefix="autograd-course-hub-")
    os.chmod(work, 0o711)
    process = None
    opened = python_reachable(sys.base_prefix + "/bin/python", os.path.dirname(student_python))
    opened.__enter__()
    try:
        passwords = {name: _make_account(name) for name in names}
        port = free_port()
        room = classroom.Classroom(
            instructor=names[0], students=tuple(names[1:]), ip="127.0.0.1", port=port,
            state=os.path.join(work, "state"), student_env=os.path.dirname(os.path.dirname(student_python)),
            course_dir=os.path.join(pwd.getpwnam(names[0]).pw_dir, "autograd-course"), course_id="autograd-course",
            exchange=os.path.join(work, "exchange"))
        classroom.prepare_exchange(room)
        classroom.prepare_course(room)
        env = {**{k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "IPYTHON", "MPL"))},
               "AUTOGRAD_HUB_INSTRUCTOR": room.instructor, "AUTOGRAD_HUB_STUDENTS": " ".join(room.students),
               "AUTOGRAD_HUB_PORT": str(port), "AUTOGRAD_HUB_STATE": room.state,
               "AUTOGRAD_HUB_STUDENT_ENV": room.student_env, "AUTOGRAD_HUB_COURSE": room.course_dir,
               "AUTOGRAD_COURSE_EXCHANGE": room.exchange}
        os.makedirs(room.state, mode=0o700)
        log_path = os.path.join(work, "jupyterhub.log")
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                [os.path.join(os.path.dirname(sys.executable), "jupyterhub"), "-f", os.path.join(HUB, "jupyterhub_config.py")],
                cwd=room.state, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        _wait_until_up(room.url, process, log_path)
        yield RunningHub(room.url, room, passwords, log_path)
    finally:
        if process is not None:
            _stop(process)
        for name in names:
            _remove_account(name)
        shutil.rmtree(work, ignore_errors=True)
        opened.__exit__(None, None, None)
