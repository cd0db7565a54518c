"""The fence, built from nbgrader's configuration: the one place grading reads its settings.

TrustedExecute declares each setting (with ``fence.DEFAULTS`` as its default), nbgrader_config.py
sets them; ``fence_of`` turns them into the ``Fence`` every kernel of this process is started with,
and ``start_zygote`` launches a batch's warm parent with the very same fence, before the grade
command imports nbgrader or torch.
"""
import importlib.util
import os
import sys

from .factory import KernelFactory
from .fence import DEFAULTS, Fence, build

_built: dict = {}


def kept_paths() -> tuple:
    """All a kernel sees besides the system's folders and its own: Python and its packages, and the
    student package (found without importing it). Everything else on the machine is absent."""
    spec = importlib.util.find_spec("course")
    package = list(spec.submodule_search_locations)[0] if spec and spec.submodule_search_locations else ""
    return tuple(p for p in dict.fromkeys((sys.prefix, sys.base_prefix, os.path.abspath(package) if package else ""))
                 if p)


def hidden_paths(keep: tuple) -> tuple:
    """The instructor package, where an install put it inside a kept folder (site-packages): a kernel
    must not read the grader's references there."""
    import autograder
    found = []
    for package in autograder.__path__:
        package = os.path.realpath(package)
        if any(package.startswith(os.path.realpath(k) + os.sep) for k in keep):
            found.append(package)
    return tuple(found)


def kernel_settings(settings) -> dict:
    """The fence's settings and ``warm_kernels`` as plain data (missing ones: the defaults), read from
    TrustedExecute's config section or an object with those attributes; a cluster worker is sent these."""
    return {name: settings.get(name, default) if hasattr(settings, "get") else getattr(settings, name, default)
            for name, default in {**DEFAULTS, "warm_kernels": True}.items()}


def fence_of(settings) -> Fence:
    """The fence these settings declare: ``settings`` maps DEFAULTS' names to values (missing: default).

    Built once per process and set of settings (probing the machine runs a process).
    """
    values = {name: value for name, value in kernel_settings(settings).items() if name in DEFAULTS}
    key = repr(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in values.items()))
    if key not in _built:
        keep = kept_paths()
        _built[key] = build(values.__getitem__, keep=keep, hidden=hidden_paths(keep))
    return _built[key]


def start_zygote(config) -> KernelFactory | None:
    """The warm parent the configured kernels fork from, launched now (None: they start cold)."""
    settings = config.TrustedExecute
    if not settings.get("warm_kernels", True):  # TrustedExecute.warm_kernels
        return None
    return KernelFactory.start(fence_of(settings))
