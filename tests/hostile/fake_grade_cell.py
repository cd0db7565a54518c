import nbformat

from . import NOT_GRADED, submission

NAME = "fake_grade_cell"
WHY = "a new graded cell worth 100 points added by the student, plus its own solution cell"
KIND = "damaged_structure"
EXPECT = {"score": NOT_GRADED, "reason": "grade_id"}  # nbgrader refuses it while putting cells back


def build(release, solutions):
    notebook = submission(release, solutions)
    bonus = nbformat.v4.new_code_cell("assert True")
    bonus.metadata["nbgrader"] = {"grade": True, "grade_id": "test_bonus", "locked": True, "points": 100,
                                  "schema_version": 3, "solution": False, "task": False}
    answer = nbformat.v4.new_code_cell("bonus = 1")
    answer.metadata["nbgrader"] = {"grade": True, "grade_id": "bonus", "locked": False, "points": 100,
                                   "schema_version": 3, "solution": True, "task": False}
    notebook.cells += [answer, bonus]
    return notebook
