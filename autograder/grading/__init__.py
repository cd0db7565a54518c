"""Grading, in three wings, each using only the one below it:

- ``batch/``: a class's submissions graded as self-contained tasks, on local workers or a Dask
  cluster, and recorded by one writer (``run.py`` is the one path every caller takes);
- ``judging/``: nbgrader's executing step with the verdict taken out of the student's kernel, the
  references, the verdicts;
- ``kernels/``: each grading kernel alone in its box (the fence, cold and warm starts).

Beside them, ``library_patches/``: every patch of another library's internals (for speed only), in
one place behind one switch.
"""
