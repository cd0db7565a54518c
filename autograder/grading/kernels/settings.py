"""How grading kernels start and what fences them: every setting declared once, as traits of
``GradingKernels`` (``c.GradingKernels.*`` in nbgrader_config.py), with its help and default.

``GradingKernels.fence()`` turns them into the ``Fence`` value every kernel of this process gets,
cold or warm; ``start_zygote`` launches a batch's warm parent with that very fence, before the grade
command imports nbgrader or torch (traitlets only here), and ``zygote()`` is the one a kernel of this
process forks from. A cluster worker is sent the settings
(``values()``) and builds its fence from them on its own machine, whose paths and rights are its own.
"""
import importlib.util
import os
import sys

from traitlets import Bool, Float, Integer, List, Unicode
from traitlets.config import Config, Configurable

from .factory import KernelFactory
from .fence import UNBOXED_FLAG, Fence, build

_built: dict = {}
STARTS = ("warm_kernels", "zygote_timeout", "allow_unboxed")  # how kernels start, not what fences them


class Unboxed(RuntimeError):
    """Kernels cannot be boxed here and the instructor has not said to grade without the box."""


class GradingKernels(Configurable):
    warm_kernels = Bool(True, help="Fork each kernel from a warm parent that has imported torch and the "
                                   "course already, instead of starting Python afresh.").tag(config=True)
    library_patches = Bool(True, help="Apply the course's patches of other libraries' internals, each for "
                                      "speed only (autograder/grading/library_patches/); off: grade with the "
                                      "libraries as shipped, the same scores and outputs, slower.").tag(config=True)
    zygote_timeout = Float(180, help="Seconds the warm parent may take to import torch and the course and "
                                     "start serving kernels; past them grading stops with its log, as a "
                                     "parent that slow is stuck.").tag(config=True)
    sandbox = Bool(True, help="Give each kernel its own namespaces, root, user and no network, where the "
                              "OS allows it.").tag(config=True)
    allow_unboxed = Bool(False, help="Grade even where kernels cannot be boxed (grading not as root, or "
                                     "namespaces refused, or sandbox off): each kernel then runs with the grading "
                                     "account's rights, and a notebook can read and change everything that "
                                     "account can, the course's source/ and gradebook included. Off: such "
                                     "grading is refused. `grade --unboxed-kernels-can-read-my-files` sets it "
                                     "for one run.").tag(config=True)
    memory_limit = Integer(2 * 1024**3, help="Bytes of memory a kernel may use: each process's address "
                                             "space, and all its processes together.").tag(config=True)
    max_processes = Integer(256, help="Processes and threads one kernel may have, all its children "
                                      "included.").tag(config=True)
    cpu_limit = Float(1.0, help="Cores one kernel may keep busy, all its children included.").tag(config=True)
    max_file = Integer(256 * 1024**2, help="Largest file a kernel may write, in bytes.").tag(config=True)
    scratch_size = Integer(512 * 1024**2, help="Bytes a kernel may write in all (its working folder, /tmp "
                                               "and /dev/shm share one private tmpfs).").tag(config=True)
    first_uid = Integer(60000, help="First uid of the range kernels run as, one uid per live "
                                    "kernel.").tag(config=True)
    uid_count = Integer(1000, help="How many uids the range holds (kernels alive at once, at "
                                   "most).").tag(config=True)
    environment = List(Unicode(), ["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"],
                       help="Environment variables a kernel inherits from the grader; all others are "
                            "dropped.").tag(config=True)

    @classmethod
    def of(cls, config: Config | None) -> "GradingKernels":
        return cls(config=config or Config())

    def values(self) -> dict:
        """Every setting as plain data (what a cluster worker is sent)."""
        return {name: getattr(self, name) for name in sorted(self.trait_names(config=True))}

    def fence(self) -> Fence:
        """The fence these settings declare on this machine, built once per process and settings
        (probing the machine runs a process)."""
        values = self.values()
        key = repr(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in values.items() if k not in STARTS))
        if key not in _built:
            keep = kept_paths()
            _built[key] = build(values.__getitem__, keep=keep, hidden=hidden_paths(keep))
        return _built[key]

    def boxed_fence(self) -> Fence:
        """The fence, refused when it cannot box a kernel unless unboxed grading is allowed by name."""
        fence = self.fence()
        if not fence.namespaces and not self.allow_unboxed:
            raise Unboxed(unboxed_refusal(fence))
        return fence

    def zygote(self) -> KernelFactory | None:
        """The warm parent this process's kernels fork from, ready (None: they start cold)."""
        return KernelFactory.shared(self.fence(), self.zygote_timeout) if self.warm_kernels else None


def unboxed_refusal(fence: Fence) -> str:
    """Why grading stops here, and the three ways on: root, the hub's grading service, or saying so."""
    return ("Refusing to grade: kernels cannot be boxed here (" + "; ".join(fence.missing) + "). Unboxed, "
            "a student's notebook runs with your rights: it can read source/ (the solutions) and the "
            "gradebook, change them, and read every classmate's submission. Grade as root, or through the "
            "hub's grading service (AUTOGRAD_COURSE_GRADING_SERVICE, docs/hub.md), or, knowing this, with "
            f"{UNBOXED_FLAG} (c.GradingKernels.allow_unboxed = True).")


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


def start_zygote(config: Config | None) -> KernelFactory | None:
    """The warm parent the configured kernels fork from, launched now (None: they start cold)."""
    kernels = GradingKernels.of(config)
    return KernelFactory.start(kernels.fence(), kernels.zygote_timeout) if kernels.warm_kernels else None
