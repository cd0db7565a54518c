"""The class report's table from mistake kinds to ideas stays true to the lessons."""
import glob
import os
import re

from autograder.workflow.mistake_ideas import IDEAS
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
