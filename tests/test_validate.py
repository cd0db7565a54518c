"""`autograd-course validate` has a real verdict, unlike `nbgrader validate`'s exit code."""
import os

from autograder.cli import main
from conftest import ROOT

LESSON = os.path.join("02_backward", "02_backward.ipynb")


def test_blank_release_fails_every_test_and_source_passes(capsys):
    assert main(["validate", os.path.join(ROOT, "release", LESSON)]) == 1
    out = capsys.readouterr().out
    assert "failing test cell(s)" in out and "not attempted" in out and "<span" not in out
    assert main(["validate", os.path.join(ROOT, "source", LESSON)]) == 0
    assert "passes" in capsys.readouterr().out
