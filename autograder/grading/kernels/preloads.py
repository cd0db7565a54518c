"""What the warm parents import before they fork: found in the student package's files, never listed.

The zygote imports every module of the student package (what a lesson's cells can import); the
local workers' fork server imports the grader's reference of every lesson. Both come from one walk
of the student package's folder, so a new exercise (``course/exercises/<lesson>/<exercise>.py``), a new
lesson or a new visual is warmed as soon as it exists, without a line changed here or in the zygote.

Both warm their imports the same way (``warming``). Standard library only: the zygote imports this
before hiding the repository. The walk reads folders and imports nothing, so it can be done where
torch must not be loaded yet.
"""
import contextlib
import gc
import importlib.util
import os
import pkgutil

STUDENT_PACKAGE = "course"
LESSONS = f"{STUDENT_PACKAGE}.exercises"  # one package per lesson, named after it
# What lessons use besides the student package. ipykernel.ipkernel imports its debugger (debugpy):
# left to each fork, every kernel would pay for it again. The second line is what a forked kernel
# still imported on its own while it started and ran a lesson (its sys.modules before and after):
# about 20 ms of every kernel's start.
LIBRARIES = ("numpy", "torch", "matplotlib", "matplotlib.pyplot", "IPython", "ipykernel.kernelapp",
             "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.debugger", "ipywidgets",
             "IPython.core.completerlib", "IPython.core.debugger", "IPython.core.logger", "IPython.core.oinspect",
             "IPython.extensions.storemagic", "IPython.utils.wildcard", "faulthandler", "pdb", "psutil", "sqlite3",
             "tornado.platform.asyncio", "torch._subclasses.schema_check_mode")


def student_modules(package: str = STUDENT_PACKAGE) -> list[str]:
    """Every module and subpackage of ``package``, by dotted name, found in its folder (none if absent)."""
    spec = importlib.util.find_spec(package)
    folders = list(spec.submodule_search_locations or ()) if spec else []
    return [package, *(name for folder in folders for name in _walk(folder, package + "."))] if folders else []


def _walk(folder: str, prefix: str):
    for found in sorted(pkgutil.iter_modules([folder]), key=lambda m: m.name):
        yield prefix + found.name
        if found.ispkg:
            yield from _walk(os.path.join(folder, found.name), f"{prefix}{found.name}.")


def lessons() -> list[str]:
    """The course's lessons by module name (``backward`` for ``course/exercises/backward/``)."""
    return [name.rsplit(".", 1)[1] for name in student_modules() if name.startswith(LESSONS + ".")
            and name.count(".") == LESSONS.count(".") + 1]


def zygote_modules() -> list[str]:
    """What the zygote imports before its first fork: the libraries, then the whole student package."""
    return [*LIBRARIES, *student_modules()]


@contextlib.contextmanager
def warming():
    """A warm parent's imports, made with the garbage collector off, then frozen for its forks.

    Importing torch and the rest makes hundreds of thousands of objects that live as long as the
    parent; the collector would scan them again and again while they are made, on the one core that
    every fork waits for. Frozen, they are never scanned again, by the parent or by a child, whose
    pages then stay shared with it (Python's own advice for a parent that forks: ``gc.freeze``).
    """
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()
