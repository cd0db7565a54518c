"""Lesson 4's exercises, reading, zeroing and hooking `.grad`: one module each in this folder.

Each draws its inputs from a seed (often a model whose `.grad` holds leftovers, as an earlier step
would leave them), runs the answer in the student's kernel (``call``) and sends back what it saw:
values of `.grad` and of the parameters, and what only the kernel can see (whether a `.grad` is still
the same tensor object, whether the parameters are the ones the optimizer holds, how many rows each
forward pass had). The expected values come from PyTorch on the grader's side
(``autograder/grading/judging/references/zero_grad/``); nothing here holds an answer.
"""
from ...lesson_package import open_lesson

EXERCISES, CORE, progress, ERROR_SECTIONS = open_lesson(globals())
