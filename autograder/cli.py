"""``autograd-course``: the instructor's commands, each one nbgrader step or a short pipeline."""
import argparse
import os
import re
import sys
import warnings

# nbgrader's gradebook session emits SQLAlchemy autoflush notices that say nothing to instructors.
warnings.filterwarnings("ignore", message="Object of type <Submitted")

from . import pipeline
from .authoring import build_source, expectations
from course.exercise import lesson_module

from .course_dir import assignments
from .validate import failing_cells


def _build(args) -> int:
    scripts = build_source.lesson_scripts(os.path.join(args.root, "source"))
    for script in scripts:
        if args.lessons and not any(name in script for name in args.lessons):
            continue
        assignment = os.path.basename(script)[:-3]
        print("stored self-check values", expectations.write(lesson_module(assignment)))
        print("executed", build_source.build(script))
    return 0


def _release(args) -> int:
    for assignment in pipeline.generate_release(args.root, args.lessons or None):
        print("released", assignment)
    return 0


def _grade(args) -> int:
    worst = 0
    for assignment in args.lessons or assignments(args.root):
        report = pipeline.autograde(args.root, assignment)
        print(f"{assignment}: " + "\n  ".join(report.lines()))
        problems = pipeline.generate_feedback(args.root, assignment, report.graded)
        for student, why in problems.items():
            print(f"  no feedback for {student}: {why}")
        worst = max(worst, 1 if report.failed or problems else 0)
    count = pipeline.export_grades(args.root, args.csv)
    print(f"wrote {count} grade rows to {args.csv}")
    return worst


def _validate(args) -> int:
    status = 0
    for path in args.notebooks:
        failures = failing_cells(path)
        print(f"{path}: {'passes' if not failures else f'{len(failures)} failing test cell(s)'}")
        for failure in failures:
            print("   ", re.sub(r"<[^>]+>", "", failure.strip().splitlines()[-1]) if failure.strip() else "(no message)")
        status = status or (1 if failures else 0)
    return status


def _prove(args) -> int:
    import tempfile

    from .authoring.prove import prove_assignment
    ok = True
    with tempfile.TemporaryDirectory() as workdir:
        for assignment in args.lessons or assignments(args.root):
            proof = prove_assignment(args.root, workdir, assignment, args.corpus)
            print("\n".join(proof.lines()))
            ok = ok and proof.solution_score == proof.max_code_score and proof.blank_score == 0 and \
                all(c.points_lost > 0 and c.message_shown and c.other_tests_intact for c in proof.caught)
    return 0 if ok else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="autograd-course", description=__doc__)
    parser.add_argument("--root", default=".", help="the course directory (holds nbgrader_config.py)")
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="execute lesson scripts into source/ notebooks (outputs kept)")
    build.add_argument("lessons", nargs="*")
    build.set_defaults(run=_build)
    release = commands.add_parser("release", help="generate release/ from source/ with nbgrader")
    release.add_argument("lessons", nargs="*")
    release.set_defaults(run=_release)
    grade = commands.add_parser("grade", help="autograde submitted/, write feedback/ and a grades CSV")
    grade.add_argument("lessons", nargs="*")
    grade.add_argument("--csv", default="grades.csv")
    grade.set_defaults(run=_grade)
    validate = commands.add_parser("validate", help="run a notebook's tests; exit 1 if any fails")
    validate.add_argument("notebooks", nargs="+")
    validate.set_defaults(run=_validate)
    prove = commands.add_parser("prove", help="grade solution, blank and the wrong-answer corpus in a scratch copy")
    prove.add_argument("lessons", nargs="*")
    prove.add_argument("--corpus", default="tests/wrong_submissions")
    prove.set_defaults(run=_prove)
    args = parser.parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
