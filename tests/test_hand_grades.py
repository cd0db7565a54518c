"""hand_grades.answers: what a hand grade graded, so that grading again can tell whether it changed."""
import nbformat

from autograder.workflow.grades.hand_grades import answers


def _notebook(tmp_path, written: str, code: str) -> str:
    cells = [
        nbformat.v4.new_code_cell(code, metadata={"nbgrader": {"solution": True, "grade": False, "grade_id": "sol"}}),
        nbformat.v4.new_code_cell("check.f(f)", metadata={"nbgrader": {"grade": True, "grade_id": "test_f"}}),
        nbformat.v4.new_markdown_cell(written, metadata={"nbgrader": {"solution": True, "grade": True,
                                                                      "grade_id": "why"}}),
    ]
    path = tmp_path / f"{abs(hash((written, code)))}.ipynb"
    nbformat.write(nbformat.v4.new_notebook(cells=cells), str(path))
    return str(path)


def test_a_written_answer_is_its_own_text_and_a_test_cell_grades_the_code(tmp_path):
    first = answers(_notebook(tmp_path, "it accumulates", "def f(): return 1"))
    same = answers(_notebook(tmp_path, "it accumulates", "def f(): return 1"))
    new_text = answers(_notebook(tmp_path, "it accumulates, so zero it", "def f(): return 1"))
    new_code = answers(_notebook(tmp_path, "it accumulates", "def f(): return 2"))
    assert set(first) == {"test_f", "why"}
    assert first == same
    assert new_text["why"] != first["why"] and new_text["test_f"] == first["test_f"]
    assert new_code["test_f"] != first["test_f"] and new_code["why"] == first["why"]


def test_a_missing_or_broken_copy_has_no_answers(tmp_path):
    broken = tmp_path / "broken.ipynb"
    broken.write_text("{not json")
    assert answers(str(broken)) == {} and answers(str(tmp_path / "gone.ipynb")) == {}
