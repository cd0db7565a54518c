"""Prove the grading works: solution full marks, blank zero, every wrong answer caught.

Runs the real ``nbgrader generate_assignment``, then grades in a scratch copy of the course
directory exactly as ``autograd-course grade`` does (its batch, workers and recorder), so what is
proved is what instructors run.
"""
import os
import shutil
from dataclasses import dataclass, field

import nbformat

from course.grade_ids import exercise_of_test

from .. import gradebook_scores
from .release import generate_release
from .wrong_answers import build_submission, load_corpus, rounds, solution_cells, write_submission

SOLUTION, BLANK = "solution", "blank"


@dataclass
class Caught:
    answer: str
    test_id: str
    points_lost: float
    message_shown: bool
    other_tests_intact: bool


@dataclass
class Proof:
    assignment: str
    max_code_score: float = 0.0
    solution_score: float = 0.0
    blank_score: float = 0.0
    caught: list[Caught] = field(default_factory=list)
    grading_failures: dict[str, str] = field(default_factory=dict)
    root: str = ""

    def lines(self) -> list[str]:
        out = [f"{self.assignment}: solution {self.solution_score:g}/{self.max_code_score:g}, "
               f"blank {self.blank_score:g}/{self.max_code_score:g}"]
        out += [f"  {c.answer:32s} {c.test_id:32s} lost {c.points_lost:g}"
                f"{'' if c.message_shown else '  (message missing!)'}"
                f"{'' if c.other_tests_intact else '  (other tests hurt!)'}" for c in self.caught]
        out += [f"  could not grade {s}: {why}" for s, why in self.grading_failures.items()]
        return out


def scratch_course(root: str, workdir: str, assignment: str, cell_timeout: int | None = None) -> str:
    """A fresh course directory holding only this assignment's source, config and no gradebook."""
    course = os.path.join(workdir, assignment)
    shutil.rmtree(course, ignore_errors=True)
    os.makedirs(course)
    shutil.copy(os.path.join(root, "nbgrader_config.py"), course)
    if cell_timeout:  # a hanging submission need not cost the proof two minutes
        with open(os.path.join(course, "nbgrader_config.py"), "a") as config:
            config.write(f"\nc.Execute.timeout = {cell_timeout}\n")
    shutil.copytree(os.path.join(root, "source", assignment), os.path.join(course, "source", assignment))
    return course


def _error_text(notebook, cell_id: str) -> str:
    cell = next(c for c in notebook.cells if c.id == cell_id)
    return "\n".join(o.get("evalue", "") + "\n".join(o.get("traceback", []))
                     for o in cell.get("outputs", []) if o.get("output_type") == "error")


def _grade_as_the_course_does(course: str, assignment: str) -> dict[str, str]:
    """Every submission graded by the batch ``autograd-course grade`` runs; student -> why not graded."""
    from ..course_dir import Course
    from ..grading.batch.planning import plan
    from ..grading.batch.run import run
    scratch = Course(course)
    jobs, _ = plan(scratch, [assignment], force=True)
    return {student: why for (_, student), why in run(scratch, jobs).failed.items()}


def prove_assignment(root: str, workdir: str, assignment: str, corpus_dir: str,
                     extra_submissions=None, cell_timeout: int | None = None) -> Proof:
    """Grade solution, blank and each round of wrong answers.

    ``extra_submissions(release, solutions)`` may return more submissions by student name: a
    notebook, or raw text for a file that is not one.
    """
    course = scratch_course(root, workdir, assignment, cell_timeout)
    generate_release(course, [assignment])
    name = f"{assignment}.ipynb"
    source = nbformat.read(os.path.join(course, "source", assignment, name), as_version=4)
    release = nbformat.read(os.path.join(course, "release", assignment, name), as_version=4)
    solutions = solution_cells(source)
    corpus = [a for a in load_corpus(corpus_dir) if a.assignment == assignment]
    planned = {SOLUTION: build_submission(release, solutions), BLANK: release}
    wrong_rounds = rounds(corpus)
    for k, wrong in enumerate(wrong_rounds, 1):
        planned[f"wrong_{k}"] = build_submission(release, {**solutions, **{c: a.code for c, a in wrong.items()}})
    for student, notebook in planned.items():
        write_submission(course, student, assignment, name, notebook)
    extras = extra_submissions(release, solutions) if extra_submissions else {}
    for student, raw in extras.items():
        folder = os.path.join(course, "submitted", student, assignment)
        os.makedirs(folder, exist_ok=True)
        if isinstance(raw, str):
            open(os.path.join(folder, name), "w").write(raw)
        else:
            nbformat.write(raw, os.path.join(folder, name))

    report = _grade_as_the_course_does(course, assignment)
    proof = Proof(assignment, grading_failures=report, root=course)
    by_student = {row["student"]: row for row in gradebook_scores.scores(course)}
    proof.max_code_score = by_student[SOLUTION]["max_code_score"]
    proof.solution_score = by_student[SOLUTION]["code_score"]
    proof.blank_score = by_student[BLANK]["code_score"]
    full = gradebook_scores.cell_scores(course, assignment, SOLUTION)
    for k, wrong in enumerate(wrong_rounds, 1):
        student = f"wrong_{k}"
        earned = gradebook_scores.cell_scores(course, assignment, student)
        graded = nbformat.read(os.path.join(course, "autograded", student, assignment, name), as_version=4)
        targeted = {a.test_id for a in wrong.values()}
        intact = all(earned[t] == full[t] for t in full if exercise_of_test(t) and t not in targeted)
        for answer in wrong.values():
            proof.caught.append(Caught(answer.name, answer.test_id, full[answer.test_id] - earned[answer.test_id],
                                       answer.said_in(_error_text(graded, answer.test_id)), intact))
    return proof


def run(args) -> int:
    import tempfile

    from ..course_dir import Course
    from ..grading.batch.run import Unboxed
    from ..grading.batch.service_protocol import ServiceRefused
    ok = True
    with tempfile.TemporaryDirectory() as workdir:
        for assignment in args.lessons or Course(args.root).lessons:
            try:
                proof = prove_assignment(args.root, workdir, assignment, args.corpus)
            except (Unboxed, ServiceRefused) as refused:
                print(refused)
                return 2
            print("\n".join(proof.lines()))
            ok = ok and proof.solution_score == proof.max_code_score and proof.blank_score == 0 and \
                all(c.points_lost > 0 and c.message_shown and c.other_tests_intact for c in proof.caught)
    return 0 if ok else 1
