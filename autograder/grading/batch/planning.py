"""What a grade command has to do, found before anything heavy is imported or started.

A submission is done when the gradebook holds it and every notebook in ``submitted/`` has a newer
copy in ``autograded/`` (a resubmission is graded again). The gradebook is read with one SQL query,
without nbgrader: nbgrader, the grader and the warm parents are only loaded and started when there
is something to grade, so ``grade`` with nothing left to do returns at once. (Which of these failed
before for what their file holds is the workflow's to say: ``workflow.status.unchanged_failures``.)
"""
import os


RECORDED = ("SELECT assignment.name, submitted_assignment.student_id FROM submitted_assignment "
            "JOIN assignment ON assignment.id = submitted_assignment.assignment_id")
SQLITE = "sqlite:///"


def recorded_submissions(url: str) -> set[tuple[str, str]]:
    """(lesson, student) of every submission the gradebook holds.

    A SQLite gradebook is read with Python's own sqlite3, any other through SQLAlchemy (whose import
    alone takes longer than all the rest of a ``grade`` with nothing to do).
    """
    if url.startswith(SQLITE):
        return _recorded_in_sqlite(url[len(SQLITE):])
    import sqlalchemy
    engine = sqlalchemy.create_engine(url)
    try:
        with engine.connect() as connection:
            return {(lesson, student) for lesson, student in connection.execute(sqlalchemy.text(RECORDED))}
    except sqlalchemy.exc.ProgrammingError as error:  # no tables yet: nothing released, nothing recorded
        if "does not exist" in str(error):
            return set()
        raise
    finally:
        engine.dispose()


def _recorded_in_sqlite(path: str) -> set[tuple[str, str]]:
    import sqlite3
    if not os.path.exists(path):
        return set()  # opening it would create an empty file
    connection = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        return {(lesson, student) for lesson, student in connection.execute(RECORDED)}
    except sqlite3.OperationalError as error:
        if "no such table" in str(error):
            return set()
        raise
    finally:
        connection.close()


def graded_already(course, lesson: str, student: str) -> bool:
    """Recorded and not resubmitted since: every submitted notebook has a newer autograded copy."""
    submitted = course.path("submitted", student, lesson)
    autograded = course.path("autograded", student, lesson)
    notebooks = [n for n in os.listdir(submitted) if n.endswith(".ipynb")] if os.path.isdir(submitted) else []
    return bool(notebooks) and all(
        os.path.exists(os.path.join(autograded, n)) and
        os.path.getmtime(os.path.join(autograded, n)) >= os.path.getmtime(os.path.join(submitted, n))
        for n in notebooks)


def plan(course, lessons=None, students=None, force: bool = False):
    """(lesson, student) pairs to grade, and those already graded (kept unless ``force``)."""
    recorded = set() if force else recorded_submissions(course.db_url)
    todo, skipped = [], []
    for lesson in lessons or course.lessons:
        for student in course.students(lesson):
            if students and student not in students:
                continue
            done = (lesson, student) in recorded and graded_already(course, lesson, student)
            (skipped if done else todo).append((lesson, student))
    return todo, skipped
