"""Lesson 3's exercises, turning autograd off and changing tensors behind its back (or not): one
module each in this folder.

Each draws its inputs from a seed; ``call`` runs the answer in the student's kernel and sends back
what it saw as plain data: outputs with their flags, and what only the kernel can see (the grad mode
after the call, module modes, which parameters were replaced, frozen or changed, version counters,
``.grad``). The expected values (eval-mode outputs, the SGD update, which parameters train...) are
computed by the grader (``autograder/grading/judging/references/no_grad/``); nothing here holds an
answer.
"""
from ...lesson_package import open_lesson

EXERCISES, CORE, progress, ERROR_SECTIONS = open_lesson(globals())
