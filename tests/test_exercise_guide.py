"""docs/authoring.md's "Adding an exercise", followed word for word on a copy of the course.

Each file the guide shows is written where its block says (a lesson's cells after the line the block
names), and each command of its `bash` block runs as its own shell command in the copy, with the
course's environment activated as `make setup` leaves it in a checkout of one's own (the copy's
packages first on the path, as its editable install would put them). Then what the commands left
is checked: the new exercise self-checks Correct in the kernel that built the notebook, is graded
for real (solution full marks, blank 0, each wrong answer caught with its message), is counted by
Where am I and the points table, renumbers the exercises after it, and nothing else changed: four
places were written by hand, the rest was derived, and the notebooks changed in the new cells and
the headings after them.
"""
import difflib
import json
import os
import re
import shutil
import subprocess
import tempfile

import nbformat
import pytest

from autograder.authoring.lesson_script import EXERCISE_HEADING
from conftest import ROOT

GUIDE = os.path.join(ROOT, "docs", "authoring.md")
SECTION = "Adding an exercise"
BLOCK = re.compile(r'^```(\w+)(?: title="([^"]+)")?(?: after="([^"]+)")?\n(.*?)^```', re.MULTILINE | re.DOTALL)
COPIED = shutil.ignore_patterns(".git", ".venv", "__pycache__", "*.egg-info", ".pytest_cache", ".ipynb_checkpoints",
                                "node_modules", "state", "student-env", "workspace", "submitted", "autograded",
                                "feedback", "gradebook.db", "test-artifacts")


def guide_section() -> str:
    """The section's text, up to the guide's next top-level heading (lines in code blocks are code)."""
    lines, inside, fenced = [], False, False
    for line in open(GUIDE, encoding="utf-8").read().splitlines(keepends=True):
        if line.startswith("```"):
            fenced = not fenced
        elif line.startswith("# ") and not fenced:
            inside = line.strip() == f"# {SECTION}"
            continue
        if inside:
            lines.append(line)
    assert lines, f"no '# {SECTION}' section in docs/authoring.md"
    return "".join(lines)


def guide_files() -> list[tuple[str, str | None, str]]:
    """(path, the line the block goes after or None for a new file, text) of each file block."""
    return [(title, after or None, body) for _, title, after, body in BLOCK.findall(guide_section()) if title]


def guide_commands() -> list[str]:
    blocks = [body for language, title, _, body in BLOCK.findall(guide_section()) if language == "bash"]
    assert len(blocks) == 1, "the section has one bash block of commands"
    return [line.strip() for line in blocks[0].splitlines() if line.strip()]


def _write(course: str, path: str, after: str | None, text: str) -> None:
    target = os.path.join(course, path)
    if after is None:
        assert not os.path.exists(target), f"{path} exists already: the guide's example must be new"
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8") as handle:
            handle.write(text)
        return
    lines = open(target, encoding="utf-8").read().split("\n")
    assert lines.count(after) == 1, f"{path}: the guide says after {after!r}, found {lines.count(after)} times"
    at = lines.index(after) + 1
    lines[at:at] = ["", *text.rstrip("\n").split("\n")]
    with open(target, "w", encoding="utf-8") as handle:
        handle.write("\n".join(lines))


@pytest.fixture(scope="module")
def added():
    """A copy of the course with the guide's exercise added and its commands run: (copy, outputs)."""
    home = tempfile.mkdtemp(prefix="autograd-guide-")
    os.chmod(home, 0o755)  # grading kernels run as their own users and read the copy's student package
    course = os.path.join(home, "course")
    shutil.copytree(ROOT, course, ignore=COPIED)
    os.symlink(os.path.join(ROOT, ".venv"), os.path.join(course, ".venv"))
    for path, after, text in guide_files():
        _write(course, path, after, text)
    env = {**os.environ, "PYTHONPATH": course}
    outputs = {}
    for command in guide_commands():
        done = subprocess.run(["bash", "-c", f". .venv/bin/activate && {command}"], cwd=course, env=env,
                              capture_output=True, text=True, timeout=1800)
        print(f"$ {command}\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
        assert done.returncode == 0, f"{command} failed:\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        outputs[command.split()[1] if command.startswith("autograd-course") else command.split()[0]] = done.stdout
    yield course, outputs
    shutil.rmtree(home, ignore_errors=True)


NAME = "grad_after_two_passes"
LESSON = "04_zero_grad"


def _notebook(root: str, kind: str):
    return nbformat.read(os.path.join(root, kind, LESSON, f"{LESSON}.ipynb"), as_version=4)


def _text(cell) -> str:
    return "\n".join(o.get("text", "") + o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []))


def test_the_guide_names_four_hand_written_places():
    paths = [path for path, _, _ in guide_files()]
    places = {path.split("/")[0] if path.startswith("tests/") else path.rsplit("/", 1)[0] for path in paths}
    assert places == {"source/04_zero_grad", "course/exercises/zero_grad",
                      "autograder/grading/judging/references/zero_grad", "tests"}


def test_the_new_exercise_self_checks_correct_in_the_kernel_that_built_the_notebook(added):
    course, _ = added
    cells = {cell.id: cell for cell in _notebook(course, "source").cells}
    assert "Correct" in _text(cells[f"test_{NAME}"])
    where_am_i = _text(_notebook(course, "source").cells[-1])
    outline = json.load(open(os.path.join(ROOT, "course", "exercises", "outlines", "zero_grad.json")))
    count = len(outline["exercises"]) + 1
    assert NAME in where_am_i and f"{count} of {count} exercises correct." in where_am_i


def test_the_new_exercise_is_numbered_and_those_after_it_renumbered(added):
    course, _ = added

    def headings(notebook):
        return [found.group(0) + source[found.end():].split("\n")[0]
                for source in (c.source for c in notebook.cells if c.cell_type == "markdown")
                for found in EXERCISE_HEADING.finditer(source)]
    before, after = headings(_notebook(ROOT, "source")), headings(_notebook(course, "source"))
    new = next(i for i, heading in enumerate(after) if "two passes, one `.grad`" in heading)
    assert after[new].startswith(f"### Exercise {new + 1}:")
    assert len(after) == len(before) + 1 and after[:new] == before[:new]
    assert [h.split(":", 1)[1] for h in after[new + 1:]] == [h.split(":", 1)[1] for h in before[new:]]
    assert all(h.startswith(f"### Exercise {k}:") for k, h in enumerate(after, 1))


def test_a_real_grade_gives_the_solution_full_marks_and_catches_each_wrong_answer(added):
    _, outputs = added
    proof = outputs["prove"]
    full = re.search(rf"{LESSON}: solution (\S+)/(\S+), blank 0/\S+", proof)
    assert full and full.group(1) == full.group(2), proof
    for answer in ("grad_after_two_passes_reset_between", "grad_after_two_passes_on_x_itself"):
        line = next(line for line in proof.splitlines() if line.strip().startswith(answer))
        assert f"test_{NAME}" in line and "lost 1" in line and "missing" not in line and "hurt" not in line


def test_the_guides_tests_ran_the_new_exercise_and_passed(added):
    _, outputs = added
    summary = outputs["pytest"].strip().splitlines()[-1]
    passed = int(re.search(r"(\d+) passed", summary).group(1))
    assert "failed" not in summary and "error" not in summary and passed >= 7, summary


def test_the_points_table_counts_the_new_exercise(added):
    course, _ = added
    row = next(line for line in open(os.path.join(course, "docs", "lessons.md")).read().splitlines()
               if f"| `{LESSON}` |" in line and "pts" in line)
    old = next(line for line in open(os.path.join(ROOT, "docs", "lessons.md")).read().splitlines()
               if f"| `{LESSON}` |" in line and "pts" in line)
    further = [int(n) for n in re.findall(r"(\d+) exercises?, (\d+) pts", old.split(" | ")[3])[0]]
    assert f"{further[0] + 1} exercises, {further[1] + 1} pts" in row


def _bytes(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _changed_files(course: str) -> set[str]:
    changed = set()
    for folder, dirs, files in os.walk(course):
        dirs[:] = [d for d in dirs if d not in (".venv", "__pycache__", ".pytest_cache", ".ipynb_checkpoints")]
        for name in files:
            path = os.path.relpath(os.path.join(folder, name), course)
            original = os.path.join(ROOT, path)
            if path == "gradebook.db":
                continue
            if not os.path.exists(original) or _bytes(original) != _bytes(os.path.join(course, path)):
                changed.add(path)
    return changed


def test_four_places_were_written_by_hand_and_everything_else_derived(added):
    course, _ = added
    by_hand = {path for path, _, _ in guide_files()}
    derived = {f"source/{LESSON}/{LESSON}.ipynb", f"release/{LESSON}/{LESSON}.ipynb", "docs/lessons.md",
               "course/exercises/expected/zero_grad.json", "course/exercises/outlines/zero_grad.json"}
    assert _changed_files(course) == by_hand | derived


def _cells(notebook) -> dict:
    """Cell id -> what a reader sees of it (its execution count aside: a cell added renumbers the later ones)."""
    def seen(output):
        return {key: value for key, value in output.items() if key != "execution_count"}
    return {cell.id: (cell.cell_type, cell.source, [seen(o) for o in cell.get("outputs", [])])
            for cell in notebook.cells}


@pytest.mark.parametrize("kind", ["source", "release"])
def test_the_notebooks_change_in_the_new_cells_and_the_headings_after_them(added, kind):
    course, _ = added
    before, after = _notebook(ROOT, kind), _notebook(course, kind)
    old, new = _cells(before), _cells(after)
    changed = {cell_id for cell_id in new if old.get(cell_id) != new[cell_id]}
    added_cells = set(new) - set(old)
    renumbered = {cell_id for cell_id in changed - added_cells if EXERCISE_HEADING.search(new[cell_id][1])}
    where_am_i = {after.cells[-1].id} if kind == "source" else set()
    assert len(added_cells) == 3 and changed == added_cells | renumbered | where_am_i
    assert set(old) - set(new) == set() and after.metadata == before.metadata
    text = lambda nb: nbformat.writes(nb).splitlines()  # noqa: E731
    lines = sum(1 for line in difflib.unified_diff(text(before), text(after), lineterm="", n=0)
                if line[:1] in "+-" and line[:3] not in ("+++", "---"))
    print(f"{kind}/{LESSON}: {lines} lines changed for 3 cells added and {len(renumbered)} headings renumbered")
