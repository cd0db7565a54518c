"""`autograd-course feedback`: a page for every submission graded to the end, through nbgrader's own step.

A submission whose hand grades are pending is held back (its total is not final) and written by the
next ``feedback`` once graded; one that could not be graded gets a page saying why (``feedback.py``).
"""
import os

from ...course_dir import Course, open_api, root_cause
from .feedback import write_ungraded_page


def generate_feedback(root: str, assignment: str, students: list[str]) -> dict[str, str]:
    """nbgrader's generate_feedback for each student (hidden tests removed by feedback.HideHiddenTests):
    student -> why there is no page, for each that failed."""
    api = open_api(root)
    problems = {}
    for student in students:
        result = api.generate_feedback(assignment, student, force=True)
        if not result["success"]:
            problems[student] = root_cause(result)
    return problems


def run(args) -> int:
    """Feedback for every submission graded to the end; one held back while a hand grade is pending
    (written when the next ``feedback`` finds it graded), a page saying why for one that could not be."""
    from ..grades import export, late_penalties
    from ..records import status
    course = Course(args.root)
    late_penalties.settle(course.root)
    snapshot = export.read_gradebook(course.root)
    try:
        lessons = export.chosen_lessons(course.root, snapshot, args.lessons)
    except ValueError as problem:
        print(f"feedback: {problem}")
        return 2
    states = status.class_status(course.root, snapshot.only(lessons), lessons=lessons)
    code = 0
    for lesson in lessons:
        graded = [s for s in course.students(lesson) if os.path.isdir(course.path("autograded", s, lesson))]
        pending = {s: states[(s, lesson)] for s in graded if states[(s, lesson)].state in (status.WAITING, status.TO_CHECK)}
        students = [s for s in graded if s not in pending]
        problems = generate_feedback(course.root, lesson, students) if students else {}
        print(f"{lesson}: feedback for {len(students) - len(problems)} student(s) in feedback/")
        for student, why in problems.items():
            print(f"  no feedback for {student}: {why}")
            code = 1
        for student, state in sorted(pending.items()):
            print(f"  {student}: held back, {state.text} (run feedback again once it is graded)")
        for (student, name), state in sorted(states.items()):
            if name == lesson and state.state == status.UNGRADABLE:
                page = write_ungraded_page(course.path("feedback", student, lesson, f"{lesson}.html"), lesson, state.why)
                print(f"  {student}: could not be graded, {os.path.relpath(page, course.root)} says why: {state.summary}")
    return code
