"""A corpus of hostile submissions to lesson 02_backward, each graded through the real pipeline.

One module per case. Each defines:

- ``NAME``: the student name it is submitted under is ``hostile_<NAME>``;
- ``WHY``: one line, what it tries;
- ``KIND``: ``broken_file``, ``damaged_structure``, ``runaway`` or ``cheat``;
- ``build(release, solutions)``: the submission, a notebook or (for a file that is not one) raw
  text, built from the release and solution cells on disk at test time, never from copied cells;
- ``EXPECT``: what grading must give it, either ``{"score": NOT_GRADED, "reason": ...}`` (nbgrader
  refuses the file; ``reason`` is in the grading failure line) or ``{"loses": [...], "reason": ...}``:
  the exercises whose test scores 0 (``ALL``: every one), every other test keeping the solution's
  points. ``reason`` is a fragment (or a tuple of fragments, any of which) the instructor sees in the autograded notebook's outputs
  (in cell ``EXPECT["cell"]`` when given, else anywhere), and ``EXPECT["absent"]``, when given, a
  fragment that cell must not show.

A case may set ``LINKS = {name: target}``: symbolic links handed in beside its notebook.

A case that shows a hole in the grader sets ``XFAIL = {test: why}`` for the tests it fails until
the hole is fixed (``outcome``: its EXPECT; ``leaves_nothing``: host files, feedback folder).

A case that gets something it must not prints ``LEAKED`` (a file it should not see, a connection
that should fail): no autograded notebook may contain that word.
"""
import copy
import importlib
import pkgutil
from dataclasses import dataclass, field
from typing import Callable

from autograder.authoring.wrong_answers import build_submission

KINDS = ("broken_file", "damaged_structure", "runaway", "cheat")
NOT_GRADED = "not graded"
ALL = "all"
LEAKED = "LEAKED"
MARKER = "hostile-corpus-7f3a"  # in the command line of every process and name of every file a case leaves
SECRET_NAME = "AUTOGRADE_HOSTILE_SECRET"  # set in the grading command's environment while the corpus is graded
SCRIPT_MARK = "document.body.setAttribute('data-marker', 'hostile-script-ran')"  # what no page may run


@dataclass(frozen=True)
class Case:
    name: str
    why: str
    kind: str
    build: Callable
    expect: dict
    xfail: dict = field(default_factory=dict)  # test name -> the hole in the grader it shows, until fixed
    links: dict = field(default_factory=dict)  # name -> target: symbolic links beside the notebook

    @property
    def student(self) -> str:
        return f"hostile_{self.name}"

    @property
    def graded(self) -> bool:
        return self.expect.get("score") != NOT_GRADED


def load_cases() -> list[Case]:
    cases = []
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        case = Case(module.NAME, module.WHY, module.KIND, module.build, module.EXPECT,
                    getattr(module, "XFAIL", {}), getattr(module, "LINKS", {}))
        if case.kind not in KINDS or ("loses" in case.expect) == (case.expect.get("score") == NOT_GRADED):
            raise ValueError(f"{info.name}: KIND must be one of {KINDS}, EXPECT needs 'loses' or a 'not graded' score")
        if case.name != info.name:
            raise ValueError(f"{info.name}: NAME must be the module's name")
        cases.append(case)
    return cases


def lean(notebook):
    """The notebook without the lesson's demo code cells (the first code cell, its imports, stays).

    A student may delete them; dropping them takes seconds off each kernel run, and no case
    depends on them.
    """
    notebook = copy.deepcopy(notebook)
    first = next(c for c in notebook.cells if c.cell_type == "code")
    notebook.cells = [c for c in notebook.cells
                      if c is first or c.cell_type != "code" or c.metadata.get("nbgrader")]
    return notebook


def submission(release, solutions, **cells):
    """The solution, lean, with some solution cells (by exercise name) replaced."""
    return lean(build_submission(release, {**solutions, **cells}))


def with_solution(solutions, name: str, before: str = "", after: str = "") -> str:
    """The genuine solution cell of ``name`` with hostile code around it."""
    return "\n".join(part for part in (before, solutions[name], after) if part)


def code_cell(source: str):
    import nbformat
    return nbformat.v4.new_code_cell(source)
