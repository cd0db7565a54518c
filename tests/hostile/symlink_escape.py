from . import MARKER, submission, with_solution

NAME = "symlink_escape"
WHY = ("leaves symlinks in its own folder for the grader (root, outside the sandbox) to follow: "
       "its notebook -> a host file, and two links to the course's source notebook and gradebook")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}
# The kernel works in a copy of its folder, deleted after; and the grader follows no link it finds
# in a submission (own_files.py), on either grading path.

CHEAT = f'''
import os
# relative links: dangling inside the sandbox (the course is hidden), valid outside it
os.symlink("../../../source/02_backward/02_backward.ipynb", "answers.txt")
os.symlink("../../../gradebook.db", "grades.txt")
os.remove("02_backward.ipynb")
os.symlink("/tmp/{MARKER}-{NAME}-written-by-the-grader.ipynb", "02_backward.ipynb")
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", before=CHEAT))
