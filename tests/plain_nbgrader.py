"""nbgrader's own `nbgrader autograde` command, as an instructor would type it in the course directory.

The tests compare the course's one grading path (`autograd-course grade`) with it, and check that the
course's configuration keeps plain nbgrader safe too (TrustedExecute, own files only).
"""
import os
import subprocess
import sys
from dataclasses import dataclass, field

NBGRADER = os.path.join(os.path.dirname(sys.executable), "nbgrader")


@dataclass
class Autograded:
    graded: list[str] = field(default_factory=list)
    failed: dict[str, str] = field(default_factory=dict)  # student -> the end of what nbgrader printed


def autograde(root: str, assignment: str, students: list[str]) -> Autograded:
    """``nbgrader autograde ASSIGNMENT --student S --force`` for each student, one command each."""
    done = Autograded()
    for student in students:
        ran = subprocess.run([NBGRADER, "autograde", assignment, "--student", student, "--force"], cwd=root,
                             capture_output=True, text=True, timeout=1800)
        if ran.returncode == 0:
            done.graded.append(student)
        else:
            done.failed[student] = (ran.stdout + ran.stderr)[-2000:]
    return done
