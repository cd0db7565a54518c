"""Grading kernels, each alone in its box.

- ``fence.py``: the ``Fence`` (what every kernel may use, built once from the configuration) and
  the ``Box`` (one kernel's own uid, folders and control group);
- ``enter.py``: the one function that puts a process in its box, however the kernel starts;
- ``cgroups.py``, ``uids.py``: a control group and a user of its own per live kernel;
- ``provisioners.py``: the two ways a kernel starts, as jupyter_client provisioners: cold, or forked
  from the zygote; each makes its box's control group before the kernel and removes it after;
- ``cold.py``: a kernel started afresh (``python -m autograder.grading.kernels.cold``);
- ``zygote.py``, ``factory.py``, ``forked_kernel.py``: kernels forked warm from a parent that has
  imported torch and the course already (``preloads.py``: what it imports, found in the student package),
  each asked for and followed by the process that grades with it;
- ``manager.py``: the jupyter_client kernel manager and client grading uses (every socket bounded);
  it chooses the provisioner;
- ``settings.py``: ``GradingKernels``, where every setting of the fence and of the starts is declared once.

Everything but ``factory.py``, ``forked_kernel.py``, ``manager.py``, ``provisioners.py`` and ``settings.py`` is imported by
processes that then hide the repository: those modules import the standard library only.
"""
