"""Lesson 2's exercises, backward() and gradients: one module each in this folder.

Each draws its inputs from a seed, runs the answer in the student's kernel (``call``) and judges what
it saw against expected values computed by the grader with real PyTorch
(``autograder/grading/judging/references/backward/``); nothing here holds an answer.

Where an exercise's text states how to compute something ("from one call to backward()",
"computing h only once", "by hand"), ``call`` watches the answer run (calls counted, torch
functions recorded) and the check fails with that rule's message even when the numbers are right.
"""
from ...lesson_package import open_lesson

EXERCISES, CORE, progress, ERROR_SECTIONS = open_lesson(globals())
