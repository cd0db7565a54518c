"""Grading kernels, each alone in its box.

- ``fence.py``: the ``Fence`` (what every kernel may use, built once from the configuration) and
  the ``Box`` (one kernel's own uid, folders and control group);
- ``enter.py``: the one function that puts a process in its box, however the kernel starts;
- ``cgroups.py``, ``uids.py``: a control group and a user of its own per live kernel;
- ``cold.py``: a kernel started afresh (``python -m autograder.grading.kernels.cold``);
- ``zygote.py``, ``zygote_client.py``, ``factory.py``: kernels forked warm from a parent that has
  imported torch and the course already;
- ``manager.py``: the jupyter_client kernel manager and client grading uses (every socket bounded);
- ``settings.py``: ``GradingKernels``, where every setting of the fence is declared once.

Everything but ``factory.py``, ``manager.py`` and ``settings.py`` is imported by processes that then hide the
repository: those modules import the standard library only.
"""
