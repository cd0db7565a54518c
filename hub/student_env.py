"""Build the students' environment from binder/ (its one declaration) into a fresh virtual environment.

`make hub` builds the hub's student environment this way, and the tests build the one they check
(tests/test_student_install.py, tests/browser/test_hub.py), so what a hub or Binder installs is what
is tested. Two things differ from a Binder build, both said here: torch is installed first, from
wherever this machine's pip finds the locked version (the Makefile's rule, so nothing can pull a
CUDA build), and binder/requirements.txt's extra index is left out, since not every machine reaches
it. Usage: python hub/student_env.py PREFIX [extra requirement ...]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REQUIREMENTS = os.path.join(CHECKOUT, "binder", "requirements.txt")
LOCK = os.path.join(CHECKOUT, "requirements-lock.txt")


def locked(name: str) -> str:
    """``name==version`` as requirements-lock.txt pins it."""
    with open(LOCK, encoding="utf-8") as handle:
        for line in handle:
            if line.split("==")[0].strip().lower() == name.lower():
                return line.strip()
    raise KeyError(f"{name} is not pinned in {LOCK}")


def local_requirements(path: str = REQUIREMENTS) -> str:
    """binder/requirements.txt without its index options, its relative -c made absolute."""
    lines = []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            if re.match(r"\s*--(extra-)?index-url\b", line):
                continue
            constraint = re.match(r"\s*(-c|--constraint)\s+(\S+)", line)
            if constraint:
                line = f"-c {os.path.normpath(os.path.join(os.path.dirname(path), constraint[2]))}\n"
            lines.append(line)
    return "".join(lines)


def build(prefix: str, extra: tuple[str, ...] = (), python: str = sys.executable) -> str:
    """A virtual environment at ``prefix`` with the student environment (and ``extra``): its python.
    A relative prefix (`make hub` gives one) is taken from here: the last install runs elsewhere."""
    prefix = os.path.abspath(prefix)
    subprocess.run([python, "-m", "venv", prefix], check=True)
    env_python = os.path.join(prefix, "bin", "python")
    pip = [env_python, "-m", "pip", "install", "--quiet"]
    subprocess.run([*pip, locked("torch")], check=True)
    with tempfile.TemporaryDirectory() as where:
        # ./course is relative to where pip runs (repo2docker runs it at the repository's root): a clean
        # copy, so no build/ left in the checkout by an earlier build can slip stale files into this one
        shutil.copytree(os.path.join(CHECKOUT, "course"), os.path.join(where, "course"),
                        ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
        requirements = os.path.join(where, "requirements.txt")
        with open(requirements, "w", encoding="utf-8") as handle:
            handle.write(local_requirements())
        subprocess.run([*pip, "-r", requirements, "-c", LOCK, *extra], check=True, cwd=where)
    return env_python


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__.rsplit("Usage: ", 1)[1])
    print("the student environment:", build(sys.argv[1], tuple(sys.argv[2:])))
