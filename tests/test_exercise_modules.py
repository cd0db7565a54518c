"""Every declared exercise, in every lesson: one module each, named after it, hints that nudge, a stub
is 'not attempted' everywhere, the lesson's order, core and points as its script says, stored
self-check values and outlines current, and no answer ships with the student package."""
import copy
import importlib
import json
import os
import pkgutil

import pytest

import course.exercises
from autograder.authoring import expectations, lesson_outline
from autograder.authoring.lesson_script import read
from autograder.course_dir import assignments
from conftest import ROOT
from course.exercise import lesson_module
from course.grade_ids import exercise_of_test
from course.checks.observation import decode, encode
from course.lesson_package import exercise_modules
from course.outcome import NOT_ATTEMPTED, NotAttempted
from lesson_solutions import source_notebook
from trial import graded

LESSONS = [info.name for info in pkgutil.iter_modules(course.exercises.__path__)]
EXERCISES = [(lesson, name, ex) for lesson in LESSONS
             for name, ex in importlib.import_module(f"course.exercises.{lesson}").EXERCISES.items()]
ASSIGNMENT = {lesson_module(assignment): assignment for assignment in assignments(ROOT)}


def stub(*args, **kwargs):
    raise NotImplementedError()


@pytest.mark.parametrize("lesson, name, exercise", EXERCISES, ids=[f"{m}.{n}" for m, n, _ in EXERCISES])
def test_exercise_is_well_formed(lesson, name, exercise, capsys, monkeypatch):
    assert (exercise.name, exercise.lesson) == (name, lesson)
    assert len(exercise.hints.texts) >= 2
    exercise(stub)
    assert "Not attempted yet" in capsys.readouterr().out
    assert graded(ASSIGNMENT[lesson], name, stub).outcome == NOT_ATTEMPTED
    monkeypatch.setenv("NBGRADER_EXECUTION", "validate")
    with pytest.raises(NotAttempted):
        exercise(stub)


def test_every_lesson_package_has_its_notebook():
    assert sorted(LESSONS) == sorted(ASSIGNMENT)


@pytest.mark.parametrize("lesson", LESSONS)
def test_each_module_of_a_lesson_is_one_exercise_named_after_it(lesson):
    package = importlib.import_module(f"course.exercises.{lesson}")
    modules = sorted(name[:-3] for name in os.listdir(package.__path__[0])
                     if name.endswith(".py") and name != "__init__.py")
    assert sorted(package.EXERCISES) == modules
    for name in modules:
        assert getattr(package, name) is package.EXERCISES[name]  # check.NAME in the lesson's cells
        assert importlib.import_module(f"{package.__name__}.{name}").EXERCISE is package.EXERCISES[name]


def test_a_module_that_declares_no_exercise_is_refused_with_where_shared_code_goes(tmp_path, monkeypatch):
    (tmp_path / "toy_lesson").mkdir()
    (tmp_path / "toy_lesson" / "__init__.py").write_text("")
    (tmp_path / "toy_lesson" / "helpers.py").write_text("def shared(x):\n    return x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(TypeError, match="toy_lesson.helpers declares no EXERCISE.*course/checks/"):
        exercise_modules("toy_lesson", [str(tmp_path / "toy_lesson")])


@pytest.mark.parametrize("lesson", LESSONS)
def test_the_lessons_order_and_core_come_from_its_notebook(lesson):
    """Where am I lists the core first, then the rest, each in the notebook's order, whatever order the
    files are in: the outline the build derived from the lesson script says it."""
    cells = source_notebook(ASSIGNMENT[lesson]).cells
    in_notebook = [exercise_of_test(c.id) for c in cells
                   if c.cell_type == "code" and c.metadata.get("nbgrader", {}).get("grade")]
    package = importlib.import_module(f"course.exercises.{lesson}")
    assert list(package.EXERCISES) == in_notebook
    further = next(i for i, c in enumerate(cells)
                   if c.cell_type == "markdown" and "\n# Going further" in "\n" + c.source)
    core = [exercise_of_test(c.id) for c in cells[:further] if c.metadata.get("nbgrader", {}).get("grade")
            and c.cell_type == "code"]
    assert package.CORE == tuple(core) and core
    rows = package.progress({}).rows
    assert [name for name, _, _ in rows] == in_notebook


@pytest.mark.parametrize("lesson", LESSONS)
def test_stored_outlines_are_current(lesson):
    script = os.path.join(ROOT, "source", ASSIGNMENT[lesson], f"{ASSIGNMENT[lesson]}.py")
    assert not lesson_outline.stale(lesson, read(script)), \
        f"run `autograd-course build {ASSIGNMENT[lesson][:2]}` to store lesson {lesson}'s outline again"


@pytest.mark.parametrize("lesson", LESSONS)
def test_where_am_i_names_the_points_of_the_notebooks_written_answers(lesson):
    """The hand-graded written answers are part of the lesson's points: Where am I names them, as the
    notebook grades them."""
    cells = source_notebook(ASSIGNMENT[lesson]).cells
    in_notebook = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"]["points"] for c in cells
                   if c.cell_type == "markdown" and c.metadata.get("nbgrader", {}).get("grade")}
    report = importlib.import_module(f"course.exercises.{lesson}").progress({})
    assert report.written == in_notebook
    if in_notebook:
        points = sum(in_notebook.values())
        assert repr(report).splitlines()[-2].endswith(f"graded by hand: {points} point{'s' if points != 1 else ''}.")


@pytest.mark.parametrize("lesson", LESSONS)
def test_stored_self_check_values_are_current(lesson):
    assert expectations.stale(lesson) == [], \
        f"run `autograd-course build` to store lesson {lesson}'s self-check values again"


def _first_float_tensor(value):
    if isinstance(value, dict):
        if value.get("__tensor__") == "torch.float64" and value["shape"]:
            return value
        value = list(value.values())
    if isinstance(value, list):
        for item in value:
            found = _first_float_tensor(item)
            if found is not None:
                return found
    return None


def _with_scaled_first_tensor(stored: dict, factor: float) -> dict:
    changed = copy.deepcopy(stored)
    entry = _first_float_tensor(changed)
    entry.update(encode(decode(entry) * factor))
    return changed


def test_stored_values_are_compared_within_the_judges_tolerance_and_can_still_fail():
    """Another CPU's last bit passes; a real change of a value, a shape, a flag or a digest fails."""
    stored = expectations.expectations("backward")
    assert expectations.drift(stored, copy.deepcopy(stored)) == []
    assert expectations.drift(stored, _with_scaled_first_tensor(stored, 1 + 2 ** -52)) == []
    assert expectations.drift(stored, _with_scaled_first_tensor(stored, 1 + 1e-5)) != []
    assert expectations.drift({"a": 7.295688781515834}, {"a": 7.2956887815158336}) == []
    assert expectations.drift({"a": 7.2956}, {"a": 7.2957}) != []
    assert expectations.drift({"a": [1, 2]}, {"a": [1, 2, 3]}) != []
    assert expectations.drift({"a": 1}, {"b": 1}) != []
    assert expectations.drift({"a": True}, {"a": 1}) != []
    assert expectations.drift({"s": {"__sealed__": "ab"}}, {"s": {"__sealed__": "ac"}}) != []
    flagged = copy.deepcopy(stored)
    _first_float_tensor(flagged)["requires_grad"] = True
    assert expectations.drift(stored, flagged) != []
    reshaped = copy.deepcopy(stored)
    tensor = _first_float_tensor(reshaped)
    tensor["shape"] = [1, *tensor["shape"]]
    assert expectations.drift(stored, reshaped) != []


def test_a_build_on_another_cpu_keeps_the_stored_file(tmp_path, monkeypatch):
    """Values equal within tolerance are no reason to rewrite the file (no churn in git)."""
    monkeypatch.setattr(expectations, "EXPECTED_DIR", str(tmp_path))
    path = tmp_path / "backward.json"
    close_enough = _with_scaled_first_tensor(expectations.expectations("backward"), 1 + 2 ** -52)
    path.write_text(json.dumps(close_enough))
    expectations.write("backward")
    assert json.loads(path.read_text()) == close_enough
    path.write_text(json.dumps(_with_scaled_first_tensor(close_enough, 1.5)))
    expectations.write("backward")
    assert path.read_text() == expectations.text_of("backward")
