"""The class report's table from mistake kinds to ideas stays true to the lessons."""
import glob
import os
import re

from autograder.workflow.pages.mistake_ideas import IDEAS
from conftest import ROOT


def test_each_idea_points_to_sections_the_lessons_have():
    """The report's 'taught in' column follows the lessons: every section it names exists today."""
    sections = {}
    for script in glob.glob(os.path.join(ROOT, "source", "*", "*.py")):
        lesson = os.path.basename(script)[:-3]
        sections[lesson] = {int(n) for n in re.findall(r"^# ## (\d+)\. ", open(script, encoding="utf-8").read(), re.M)}
    for idea in IDEAS:
        if idea.where == "every lesson":
            continue
        for lesson, refs in re.findall(r"(\d\d_\w+) ((?:§[\d-]+(?:, )?)+)", idea.where):
            for ref in re.findall(r"§([\d-]+)", refs):
                first, _, last = ref.partition("-")
                wanted = set(range(int(first), int(last or first) + 1))
                assert wanted <= sections[lesson], f"{idea.idea}: {lesson} has no section {ref}"


def test_the_commonest_raised_errors_and_a_missing_function_map_to_ideas_with_sections():
    from autograder.workflow.pages.mistake_ideas import idea_of
    integer = idea_of("RuntimeError", "RuntimeError: Only Tensors of floating point and complex dtype can require gradients")
    assert integer.idea == "Only floating-point tensors can require grad" and integer.where == "01_graph §2"
    assert idea_of("RuntimeError", "Trying to backward through the graph a second time (or ...)").where == "02_backward §4, §6"
    assert idea_of("not_defined", "`leaf_from_list` is not defined as a function").where == "every lesson"
    assert not idea_of("RuntimeError", "something else entirely").idea.startswith("other:")
    # a diagnosed kind keeps its own idea, whatever its message quotes
    assert idea_of("grad_accumulated", "backward through the graph a second time").idea.startswith(".grad adds up")


def test_a_kind_two_lessons_share_is_filed_under_each_lessons_own_idea():
    """Lesson 2's "same tensor object" (grad_aliased in two_losses) is the in-place .grad of 02 §3, not
    lesson 4's hooks, which use the same kind."""
    from autograder.workflow.pages.mistake_ideas import idea_of
    assert idea_of("grad_aliased", "both gradients are the same tensor object", "02_backward").where == "02_backward §3"
    assert idea_of("grad_aliased", "", "04_zero_grad").where.startswith("04_zero_grad")


def test_a_kind_not_listed_is_filed_under_its_exercises_section():
    from autograder.workflow.pages.mistake_ideas import exercise_sections
    from autograder.workflow.pages.report import CellResult, ideas
    sections = exercise_sections(ROOT, ["01_graph", "02_backward"])
    assert sections[("02_backward", "vjp")] == "02_backward §7" and sections[("01_graph", "leaf_from_list")] == "01_graph §2"
    wrong = CellResult("02_backward", "ada", "vjp", "incorrect", "a_kind_nobody_listed", "a message")
    [found] = ideas([wrong], sections)
    assert found.where == "02_backward §7" and found.idea == "vjp: a kind nobody listed"
