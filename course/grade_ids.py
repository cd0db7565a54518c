"""How an exercise and its graded test cell name each other: ``vjp`` is checked by ``test_vjp``.

The one rule, used by the lesson scripts, the grader and the reports alike; standard library only,
so a save hook or a report needs no torch to apply it.
"""


def test_id(exercise: str) -> str:
    """The graded test cell of exercise ``vjp`` is ``test_vjp``: derived, never typed."""
    return f"test_{exercise}"


def exercise_of_test(grade_id: str) -> str | None:
    """``test_vjp`` -> ``vjp``; None for a grade id that is not an exercise's test (a written answer)."""
    return grade_id[len("test_"):] if grade_id.startswith("test_") else None
