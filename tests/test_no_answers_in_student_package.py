"""No release notebook's exercise can be solved with the student package's own public names.

What students install (``course``) holds machinery, never answers: for every graded exercise of every
lesson, each public callable of ``course.*`` that takes the exercise's arguments is tried as the
answer, as is, and with its result read the ways a student would read it (an item, a length, the
nodes of a walk, their names, the lines of a printout). None may pass the grader.
"""
import importlib
import inspect
import pkgutil
import warnings

import pytest

import course
from autograder.course_dir import assignments
from autograder.authoring.wrong_answers import solution_cells
from conftest import ROOT
from lesson_solutions import define, source_notebook
from course.exercise import Exercise
from course.outcome import RAISED
from trial import graded

# How a result may be read to make an answer of it.
READINGS = {
    "first item": lambda r: r[0],
    "second item": lambda r: r[1],
    "length": len,
    "nodes of a walk": lambda r: len(r.nodes),
    "node labels": lambda r: [n.label for n in r.nodes],
    "node classes": lambda r: [type(n.grad_fn).__name__ for n in r.nodes],
    "lines of a printout": lambda r: len(r.splitlines()),
    "names in a printout": lambda r: [line.split()[-1] for line in r.splitlines()],
}
# Callables that display or start things rather than compute: never an answer, and not to be run here.
NOT_TRIED = {"course.kernel_side.respond", "course.kernel_side.respond_each"}


def public_callables() -> dict[str, object]:
    found = {}
    for info in pkgutil.walk_packages(course.__path__, "course."):
        module = importlib.import_module(info.name)
        for name, value in vars(module).items():
            qualified = f"{info.name}.{name}"
            home = getattr(value, "__module__", None) or ""
            if name.startswith("_") or not callable(value) or qualified in NOT_TRIED or isinstance(value, Exercise):
                continue  # an Exercise called is the self-check itself: it shows a verdict and returns None
            if home.startswith("course") and hasattr(value, "__qualname__"):
                found[id(value)] = (f"{home}.{value.__qualname__}", value)  # named where it is defined
            elif type(value).__module__.startswith("course"):
                found.setdefault(id(value), (qualified, value))
    return dict(found.values())


def takes(value, count: int) -> bool:
    try:
        inspect.signature(value).bind(*range(count))
    except (TypeError, ValueError):
        return False
    return True


def callables_taking(count: int):
    return [(qualified, value) for qualified, value in public_callables().items() if takes(value, count)]


def read_as(value, read):
    def answer(*args):
        return read(value(*args))
    return answer


def answers_from(assignment: str, name: str, value):
    """The verdicts of ``value`` read each way; one try when the callable itself raises on these inputs."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        first = graded(assignment, name, value, seeds=(11,))
        yield "as is", first
        if first.outcome == RAISED:
            return
        for reading, read in READINGS.items():
            yield reading, graded(assignment, name, read_as(value, read), seeds=(11,))


@pytest.mark.parametrize("assignment", assignments(ROOT))
def test_no_exercise_is_answered_by_a_public_name_of_the_student_package(assignment):
    passed = []
    for name, code in solution_cells(source_notebook(assignment)).items():
        count = len(inspect.signature(define(code, name)).parameters)
        for qualified, value in callables_taking(count):
            passed += [f"{name} <- {qualified} ({reading})" for reading, verdict in answers_from(assignment, name, value)
                       if verdict.passed]
    assert not passed, f"answered by the student package: {passed}"


def test_the_search_would_find_a_helper_that_answers(monkeypatch):
    """The search is real: a public walk left open while count_nodes is checked is found."""
    from course.exercises import graph
    from course.visuals import graph_walk
    monkeypatch.setattr(graph.count_nodes, "closes", ())
    assert "course.visuals.graph_walk.walk_graph" in public_callables()
    assert "course.visuals.graph_walk.walk_graph" in dict(callables_taking(1))
    verdicts = dict(answers_from("01_graph", "count_nodes", graph_walk.walk_graph))
    assert verdicts["nodes of a walk"].passed and not verdicts["as is"].passed
    assert callable(graph_walk.walk_graph)
