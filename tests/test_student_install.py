"""The student package installed as a JupyterHub, Binder or Colab image installs it, and used there.

Its wheel is built from `course/` alone; the student environment is built as binder/ declares it
(`./course` and its dependencies, pinned by the lock) into a fresh virtual environment outside the
repository (tests/shared_student_env.py); a release notebook then runs in a real kernel of
that environment, from a folder outside the repository. A correct answer's self-check must say
Correct from the stored values the wheel carries, a wrong one what is wrong, and nothing of the
grader, above all no reference, may be importable or readable from what was installed.
"""
import ast
import glob
import json
import os
import shutil
import subprocess
import sys
import zipfile

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient

from course import grade_ids
from autograder.authoring.wrong_answers import build_submission, load_corpus, solution_cells
from conftest import ROOT
from lesson_solutions import source_notebook
from shared_student_env import shared_student_env

LESSON = "02_backward"
KERNEL = "student-image"


def _run(*command: str, cwd: str | None = None) -> str:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"{' '.join(command)} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> dict[str, str]:
    """Both distributions' wheels, each built from a copy so no build files land in the checkout."""
    out = tmp_path_factory.mktemp("wheels")
    built = {}
    for name, folder in (("student", "course"), ("instructor", ".")):
        copy = out / f"{name}-src"
        shutil.copytree(os.path.join(ROOT, folder), copy,
                        ignore=shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", "build",
                                                      "workspace", "submitted", "autograded", "feedback"))
        _run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
             "-w", str(out / name), str(copy))
        built[name], = glob.glob(str(out / name / "*.whl"))
    return built


@pytest.fixture(scope="module")
def image(tmp_path_factory) -> str:
    """The student environment as binder/ declares it (hub/student_env.py), fresh: its python."""
    return shared_student_env(tmp_path_factory)


def _installed_files(python: str) -> list[str]:
    """Every file the student distribution put into the environment, from its own RECORD."""
    site = _run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").strip()
    record, = glob.glob(os.path.join(site, "autograd_course_student-*.dist-info", "RECORD"))
    with open(record, encoding="utf-8") as handle:
        return [os.path.normpath(os.path.join(site, line.split(",")[0])) for line in handle if line.strip()]


def test_the_student_wheel_holds_the_package_and_its_stored_values_and_nothing_of_the_grader(wheels):
    names = zipfile.ZipFile(wheels["student"]).namelist()
    print("student wheel:", *names, sep="\n  ")
    assert {n.split("/")[0] for n in names} == {"course", "autograd_course_student-0.1.0.dist-info"}
    lessons = {os.path.basename(os.path.dirname(p))
               for p in glob.glob(os.path.join(ROOT, "course", "exercises", "*", "__init__.py"))}
    assert lessons, "no lesson package found in course/exercises/"
    stored = {f"course/exercises/{kind}/{lesson}.json" for lesson in lessons for kind in ("expected", "outlines")}
    assert stored <= set(names)
    assert {f"course/exercises/{os.path.relpath(p, os.path.join(ROOT, 'course', 'exercises'))}"
            for p in glob.glob(os.path.join(ROOT, "course", "exercises", "*", "*.py"))} <= set(names)
    assert not [n for n in names if "autograder" in n or "references" in n or n.endswith(".toml")]
    instructor = zipfile.ZipFile(wheels["instructor"]).namelist()
    assert any(n.startswith("autograder/grading/judging/references/") for n in instructor)
    assert not [n for n in instructor if n.startswith("course/")], "the instructor wheel must not ship course/ twice"


def _reference_lines() -> set[str]:
    """The references' own code: lines of their function bodies that nothing in course/ shares."""
    lines = set()
    for path in glob.glob(os.path.join(ROOT, "autograder", "grading", "judging", "references", "**", "*.py"),
                          recursive=True):
        source = open(path, encoding="utf-8").read()
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef):
                body = ast.get_source_segment(source, node) or ""
                lines |= {line.strip() for line in body.splitlines()[1:] if len(line.strip()) >= 30
                          and not line.strip().startswith(("#", '"', "'", "return {", "from ", "import "))}
    course_text = "\n".join(open(p, encoding="utf-8").read()
                            for p in glob.glob(os.path.join(ROOT, "course", "**", "*.py"), recursive=True))
    return {line for line in lines if line not in course_text}


def test_nothing_of_the_grader_can_be_imported_or_read_in_the_image(image):
    for module in ("autograder", "autograder.grading.judging.references"):
        done = subprocess.run([image, "-c", f"import {module}"], capture_output=True, text=True, cwd="/")
        assert done.returncode != 0 and "ModuleNotFoundError" in done.stderr, module
    files = _installed_files(image)
    assert not [f for f in files if "autograder" in f]
    secrets = _reference_lines()
    assert len(secrets) > 20, "the probe must look for real reference code"
    for path in files:
        if path.endswith((".py", ".json", ".txt")) and os.path.exists(path):
            text = open(path, encoding="utf-8", errors="replace").read()
            leaked = [line for line in secrets if line in text]
            assert not leaked, f"{path} holds reference code: {leaked[:3]}"


def _kernel(python: str, folder) -> KernelManager:
    spec_dir = folder / "kernels" / KERNEL
    spec_dir.mkdir(parents=True)
    (spec_dir / "kernel.json").write_text(json.dumps(
        {"argv": [python, "-m", "ipykernel_launcher", "-f", "{connection_file}"], "display_name": KERNEL,
         "language": "python"}))
    return KernelManager(kernel_name=KERNEL, kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(folder / "kernels")]))


def _outputs_text(cell) -> str:
    parts = []
    for output in cell.get("outputs", []):
        parts += [output.get("text", ""), output.get("ename", ""), output.get("evalue", "")]
        parts += [str(v) for v in output.get("data", {}).values()]
    return "\n".join(parts)


def test_a_release_notebook_self_checks_in_the_image(image, tmp_path, monkeypatch):
    """Solutions say Correct and the wrong answer is named, in a kernel that sees only the image."""
    release = nbformat.read(os.path.join(ROOT, "release", LESSON, f"{LESSON}.ipynb"), as_version=4)
    answers = solution_cells(source_notebook(LESSON))
    wrong = next(a for a in load_corpus(os.path.join(ROOT, "tests", "wrong_submissions")) if a.assignment == LESSON)
    submission = build_submission(release, {**answers, wrong.replaces: wrong.code})
    folder = tmp_path / "student"
    folder.mkdir()
    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.delenv("NBGRADER_EXECUTION", raising=False)
    client = NotebookClient(submission, km=_kernel(image, tmp_path), timeout=300, allow_errors=True,
                            resources={"metadata": {"path": str(folder)}})
    client.execute()
    cells = {cell.id: cell for cell in submission.cells}

    where = "".join(_outputs_text(c) for c in submission.cells)
    assert "ModuleNotFoundError" not in where and "StoredValuesMissing" not in where
    for name in answers:
        if name == wrong.replaces or grade_ids.test_id(name) not in cells:
            continue
        assert "Correct" in _outputs_text(cells[grade_ids.test_id(name)]), f"{name}: {_outputs_text(cells[grade_ids.test_id(name)])}"
    failed = _outputs_text(cells[grade_ids.test_id(wrong.replaces)])
    assert "CheckFailed" in failed and wrong.said_in(failed), failed

    probe = nbformat.v4.new_code_cell("import course, sys; print(course.__file__); print(sys.executable)")
    client.nb.cells.append(probe)
    with client.setup_kernel():
        client.execute_cell(probe, len(client.nb.cells) - 1)
    seen = _outputs_text(probe)
    assert seen.splitlines()[0].startswith(os.path.dirname(os.path.dirname(image))) and ROOT not in seen
