"""The two Python environments a class hub serves, built outside the checkout from the system's Python.

`make hub` runs this (as root, with Debian's /usr/bin/python3.11) before the hub starts:
    PREFIX/student-env      what every student's server runs: binder/'s declaration (student_env.py)
                            and jupyterhub; readable by every account
    PREFIX/instructor-env   the instructor's server, their terminal's `autograd-course` and `nbgrader`,
                            the hub itself and its grading service: requirements-lock.txt and both
                            packages, installed as copies (the checkout may be closed to everyone but root)
Each is built from nothing only when what it installs from has changed (a digest kept beside it),
and only its packages are installed again when only their sources changed: a second `make hub` takes
seconds. Both build at once, each in its own process. Usage: python hub/hub_environments.py PREFIX
"""
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

import student_env

CHECKOUT = student_env.CHECKOUT
LOCK = student_env.LOCK
SKIP = shutil.ignore_patterns("build", "*.egg-info", "__pycache__", ".ipynb_checkpoints")
STUDENT, INSTRUCTOR = "student-env", "instructor-env"


def _digest(*paths: str) -> str:
    """One digest of these files and every file under these folders (names and contents)."""
    digest = hashlib.sha256()
    for path in paths:
        files = [path] if os.path.isfile(path) else sorted(
            os.path.join(folder, name) for folder, dirs, names in os.walk(path)
            if not dirs.sort() and "__pycache__" not in folder.split(os.sep) for name in names
            if not name.endswith((".pyc", ".egg-info")))
        for name in files:
            digest.update(os.path.relpath(name, CHECKOUT).encode() + b"\0")
            with open(name, "rb") as handle:
                digest.update(handle.read())
    return digest.hexdigest()


def _stamp(env: str, kind: str) -> str:
    return os.path.join(env, f".{kind}-digest")


def _read(path: str) -> str:
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read().strip()
    except FileNotFoundError:
        return ""


def _write(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text + "\n")


def _packages(env: str, names: tuple[str, ...]) -> None:
    """Install the checkout's packages into ``env`` as copies (not links into the checkout)."""
    with tempfile.TemporaryDirectory() as where:
        targets = []
        if "course" in names:
            shutil.copytree(os.path.join(CHECKOUT, "course"), os.path.join(where, "course"), ignore=SKIP)
            targets.append("./course")
        if "autograder" in names:
            instructor = os.path.join(where, "instructor")
            shutil.copytree(os.path.join(CHECKOUT, "autograder"), os.path.join(instructor, "autograder"), ignore=SKIP)
            for name in ("pyproject.toml", "README.md"):
                shutil.copy(os.path.join(CHECKOUT, name), instructor)
            targets.append("./instructor")
        subprocess.run([os.path.join(env, "bin", "python"), "-m", "pip", "install", "--quiet", "--no-deps",
                        "--no-build-isolation", "--force-reinstall", *targets], check=True, cwd=where)


def build_student(prefix: str, python: str) -> str:
    env = os.path.join(prefix, STUDENT)
    needs = _digest(student_env.REQUIREMENTS, LOCK, os.path.join(CHECKOUT, "course", "pyproject.toml"))
    if _read(_stamp(env, "requirements")) != needs:
        shutil.rmtree(env, ignore_errors=True)
        student_env.build(env, extra=(student_env.locked("jupyterhub"),), python=python)
        _write(_stamp(env, "requirements"), needs)
        _write(_stamp(env, "packages"), _digest(os.path.join(CHECKOUT, "course")))
        return f"{env}: built"
    packages = _digest(os.path.join(CHECKOUT, "course"))
    if _read(_stamp(env, "packages")) != packages:
        _packages(env, ("course",))
        _write(_stamp(env, "packages"), packages)
        return f"{env}: the student package installed again"
    return f"{env}: up to date"


def build_instructor(prefix: str, python: str) -> str:
    env = os.path.join(prefix, INSTRUCTOR)
    needs = _digest(LOCK)
    sources = (os.path.join(CHECKOUT, "course"), os.path.join(CHECKOUT, "autograder"),
               os.path.join(CHECKOUT, "pyproject.toml"))
    if _read(_stamp(env, "requirements")) != needs:
        shutil.rmtree(env, ignore_errors=True)
        subprocess.run([python, "-m", "venv", env], check=True)
        pip = [os.path.join(env, "bin", "python"), "-m", "pip", "install", "--quiet"]
        subprocess.run([*pip, student_env.locked("torch")], check=True)  # first: nothing pulls a CUDA build
        subprocess.run([*pip, "--no-deps", "-r", LOCK], check=True)
        _write(_stamp(env, "requirements"), needs)
        _write(_stamp(env, "packages"), "")
    packages = _digest(*sources)
    if _read(_stamp(env, "packages")) != packages:
        _packages(env, ("course", "autograder"))
        _write(_stamp(env, "packages"), packages)
        return f"{env}: built"
    return f"{env}: up to date"


def build(prefix: str, python: str = sys.executable) -> list[str]:
    """Both environments under ``prefix`` (made 755: every account runs what is in it), as needed."""
    os.makedirs(prefix, exist_ok=True)
    os.chmod(prefix, 0o755)
    with ThreadPoolExecutor(2) as pool:
        done = [pool.submit(build_student, prefix, python), pool.submit(build_instructor, prefix, python)]
        return [d.result() for d in done]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__.rsplit("Usage: ", 1)[1])
    for line in build(os.path.abspath(sys.argv[1])):
        print(line, flush=True)
