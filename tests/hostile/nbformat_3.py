import nbformat

from . import submission

NAME = "nbformat_3"
WHY = "the solution saved in the old nbformat 3 (worksheets, no cell ids)"
KIND = "broken_file"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}


def build(release, solutions):
    return nbformat.writes(nbformat.convert(submission(release, solutions), 3), version=3)
