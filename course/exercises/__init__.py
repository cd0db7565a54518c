"""One package per lesson, one module per exercise: ``course/exercises/<lesson>/<exercise>.py`` holds
its inputs, its call in the student's kernel, its judge, the mistakes it names and its hints; its
trial asks PyTorch for the truth on the grader's side (``course/lesson_package.py`` says how a
lesson's package is opened, docs/authoring.md how to add an exercise).

``expected/<lesson>.json`` (the self-checks' stored values) and ``outlines/<lesson>.json`` (each
lesson's exercises in order, its core and its points) are written by ``autograd-course build``.
"""
