"""Where the rest of the grader finds the kernels' parts (they live in ``kernels/``).

See ``kernels/__init__.py``: the fence and a box per kernel (``fence.py``, ``enter.py``), cold and
warm starts (``cold.py``, ``zygote.py``, ``factory.py``), the kernel manager (``manager.py``).
"""
import os

import autograder

from .kernels.factory import KernelFactory
from .kernels.fence import DEFAULTS, namespaces_refused
from .kernels.manager import GradingKernelClient, SandboxedKernelManager
from .kernels.settings import fence_of, kept_paths, start_zygote

SANDBOX, WARM_KERNELS = DEFAULTS["sandbox"], True  # TrustedExecute's defaults, which ``start_zygote`` reads too

__all__ = ["KernelFactory", "GradingKernelClient", "SandboxedKernelManager", "fence_of", "kept_paths", "start_zygote",
           "namespaces_refused", "repository_root", "SANDBOX", "WARM_KERNELS"]


def repository_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(autograder.__file__)))
