"""Throwaway system accounts for tests that act as a person: made with useradd, removed with their files.

A test that runs an instructor's or a student's step runs it as that account: its uid, gid and home,
with no groups and no environment of the test's. Where this machine's Python lives in a folder other
accounts cannot pass (pyenv in /root), ``python_reachable`` lets them through while the test runs:
that is where the test machine keeps Python, not something the product sets up for anyone.
"""
import importlib.util
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager

USERADD = ["useradd", "--create-home", "--user-group", "--key", "HOME_MODE=0700", "--shell", "/bin/bash"]


def cannot_make_accounts() -> str | None:
    """Why this machine cannot make test accounts, or None."""
    if not sys.platform.startswith("linux"):
        return "accounts are made with Linux's useradd"
    if os.geteuid() != 0:
        return "making system accounts (useradd) and running commands as them needs root"
    for tool in ("useradd", "userdel", "chpasswd"):
        if not shutil.which(tool):
            return f"{tool} is not installed"
    return None


def make_account(name: str) -> str:
    """A new account with a private home and a random password, which is returned."""
    subprocess.run([*USERADD, name], check=True, capture_output=True)
    password = secrets.token_urlsafe(12)
    subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True)
    return password


def remove_account(name: str) -> None:
    """The account, every process it still runs, its home and what it left in /tmp."""
    try:
        uid = pwd.getpwnam(name).pw_uid
    except KeyError:
        return
    for _ in range(20):
        pids = [int(p) for p in os.listdir("/proc") if p.isdigit() and _owner(p) == uid]
        if not pids:
            break
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.2)
    with os.scandir(tempfile.gettempdir()) as entries:  # userdel removes only the home and mail
        for entry in entries:
            try:
                if entry.stat(follow_symlinks=False).st_uid != uid:
                    continue
                shutil.rmtree(entry.path, ignore_errors=True) if entry.is_dir(follow_symlinks=False) \
                    else os.unlink(entry.path)
            except FileNotFoundError:
                pass
    subprocess.run(["userdel", "--remove", name], capture_output=True)


def _owner(pid: str) -> int | None:
    try:
        return os.stat(f"/proc/{pid}").st_uid
    except FileNotFoundError:
        return None


def closed_to_others(path: str) -> list[str]:
    """The folders on the way to ``path`` that other accounts cannot pass through: the hub's own test of it."""
    spec = importlib.util.spec_from_file_location("classroom", os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "hub", "classroom.py"))
    classroom = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(classroom)
    return classroom.closed_to_others(path)


@contextmanager
def python_reachable(*pythons: str):
    """Let every account pass through (x, never list) the folders on the way to these Pythons, for a while."""
    closed = {folder: os.stat(folder).st_mode for python in pythons
              for folder in closed_to_others(os.path.dirname(os.path.realpath(python)))}
    for folder, mode in closed.items():
        os.chmod(folder, mode | 0o001)
    try:
        yield
    finally:
        for folder, mode in closed.items():
            os.chmod(folder, mode & 0o7777)


def run_as(user: str, *command: str, cwd: str | None = None, env: dict | None = None, timeout: float = 600,
           ) -> subprocess.CompletedProcess:
    """``command`` as ``user``: its uid and gid, no other groups, a clean environment with its home."""
    account = pwd.getpwnam(user)
    environment = {"HOME": account.pw_dir, "USER": user, "LOGNAME": user, "LANG": "C.UTF-8",
                   "PATH": "/usr/local/bin:/usr/bin:/bin", **(env or {})}
    return subprocess.run(command, user=account.pw_uid, group=account.pw_gid, extra_groups=[],
                          cwd=cwd or account.pw_dir, env=environment, capture_output=True, text=True,
                          timeout=timeout)
