"""Lesson 1's exercises, requires_grad and the computational graph: one module each in this folder.

Each draws its inputs from a seed (random data, random chains and shared graphs built with real
PyTorch), runs the answer in the student's kernel (``call``) and judges what it saw against expected
values the grader computes (``autograder/grading/judging/references/graph/``). Nothing here holds an
answer: no expected flags, names or counts, only how to build the inputs and how to name a mistake.
"""
from ...lesson_package import open_lesson

EXERCISES, CORE, progress, ERROR_SECTIONS = open_lesson(globals())
