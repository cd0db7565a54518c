"""`autograd-course feedback`: a page for every submission graded to the end, through nbgrader's own step.

A submission whose hand grades are pending is held back (its total is not final) and written by the
next ``feedback`` once graded; one that could not be graded gets a page saying why (``feedback.py``);
a page that no longer fits its submission is removed, and the pages changed since the last return
are listed (``feedback_pages.py``).
"""
import os

from ...course_dir import Course, open_api, root_cause
from ..records import feedback_pages
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
    """Feedback for every submission graded to the end and a page saying why for one that could not be;
    a page whose submission is held back (a hand grade pending), not graded yet (a resubmission) or
    missing is removed, so no stale page stays to be returned. Ends with the pages changed since the
    last return."""
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
    code, written, removed = 0, {}, set()
    for lesson in lessons:
        here = {student: state for (student, name), state in states.items() if name == lesson}
        graded = [s for s, state in sorted(here.items()) if state.state == status.GRADED]
        problems = generate_feedback(course.root, lesson, graded) if graded else {}
        print(f"{lesson}: feedback for {len(graded) - len(problems)} student(s) in feedback/")
        for student in graded:
            if student in problems:
                print(f"  no feedback for {student}: {problems[student]}")
                code = 1
            else:
                written[feedback_pages.Key(student, lesson)] = feedback_pages.made_from(
                    course.root, snapshot, here[student], student, lesson)
        for student, state in sorted(here.items()):
            if state.state == status.UNGRADABLE:
                page = write_ungraded_page(feedback_pages.page_path(course.root, student, lesson), lesson, state.why,
                                           grader_stopped=state.why.startswith(status.STOPPED))
                written[feedback_pages.Key(student, lesson)] = feedback_pages.made_from(
                    course.root, snapshot, state, student, lesson)
                print(f"  {student}: could not be graded, {os.path.relpath(page, course.root)} says why: {state.summary}")
            elif state.state != status.GRADED or student in problems:
                gone = feedback_pages.remove(course.root, student, lesson)
                removed.add(feedback_pages.Key(student, lesson))
                if state.state in (status.WAITING, status.TO_CHECK):
                    print(f"  {student}: held back, {state.text} (run feedback again once it is graded)"
                          + ("; its earlier page is removed" if gone else ""))
                elif gone:
                    print(f"  {student}: earlier page removed, {state.text}")
    feedback_pages.record(course.root, written, removed)
    new, changed, gone = feedback_pages.since_return(course.root)
    print(f"since the last return: {len(new)} new, {len(changed)} changed, {len(gone)} removed page(s)")
    for word, keys in (("new", new), ("changed", changed), ("removed", gone)):
        for student, lesson in keys:
            print(f"  {word}: {student} {lesson}")
    return code
