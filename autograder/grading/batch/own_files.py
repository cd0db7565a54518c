"""What reaches the grader of a submission: its own regular files, and nothing a link points at.

A student's folder can hold symbolic links (through nbgrader's exchange, an archive, a folder copied
by hand). The grader runs as root outside the box, so a link it follows is a file of the course's
(``source/``, the gradebook) or of the machine's, copied into ``autograded/`` and then into the
student's feedback. Here a submission is only the regular files inside its folder, reached without
passing through a link; every other entry (a link, a device, a pipe, a socket) is left out, with
a reason the instructor sees. Both grading paths use it: the tasks and the recorder of
``autograd-course grade`` directly, plain ``nbgrader autograde`` and ``generate_feedback`` through
``guard_nbgrader`` (installed by ``nbgrader_config.py``).
"""
import os
import stat
from dataclasses import dataclass

KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISCHR, "a device"),
         (stat.S_ISBLK, "a device"), (stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"))


@dataclass(frozen=True)
class LeftOut:
    path: str  # relative to the submission's folder
    why: str

    def __str__(self) -> str:
        return f"{self.path} ({self.why})"


def _kind(mode: int) -> str:
    return next((name for test, name in KINDS if test(mode)), "not a regular file")


def linked_folder(folder: str, top: str = "") -> str:
    """The first folder from ``top`` (exclusive) down to ``folder`` that is a link, or ''."""
    folder = os.path.abspath(folder)
    top = os.path.abspath(top) if top else os.path.dirname(folder)
    parts = os.path.relpath(folder, top).split(os.sep) if folder != top else []
    path = top
    for part in parts:
        path = os.path.join(path, part)
        if os.path.islink(path):
            return path
    return ""


def own_files(folder: str, top: str = "") -> tuple[list[str], list[LeftOut]]:
    """The regular files under ``folder`` (relative paths, sorted) and what was left out, and why.

    ``top``: the course folder the submission lives in; a link on the way down from it (a student's
    folder that is a link to somewhere else) leaves out everything.
    """
    if not os.path.lexists(folder):
        return [], []
    link = linked_folder(folder, top)
    if link or not os.path.isdir(folder):
        return [], [LeftOut(".", f"the submission's folder {'passes through' if link else 'is'} a link or "
                                 "not a folder")]
    files, left = [], []
    for directory, folders, names in os.walk(folder):  # os.walk never descends into a link to a folder
        for name in sorted(folders + names):
            path = os.path.join(directory, name)
            mode = os.lstat(path).st_mode
            relative = os.path.relpath(path, folder)
            if stat.S_ISREG(mode):
                files.append(relative)
            elif not stat.S_ISDIR(mode):
                left.append(LeftOut(relative, _kind(mode)))
    return sorted(files), left


def find_own_files(path: str, exclude=None) -> list[str]:
    """nbgrader's ``find_all_files`` (the same ignore globs, on every folder down and on the file), of
    the own files only."""
    from nbgrader.utils import is_ignored
    if is_ignored(path, exclude):
        return []
    found = []
    for relative in own_files(path)[0]:
        parts = relative.split(os.sep)
        steps = [os.path.join(path, *parts[:k]) for k in range(1, len(parts) + 1)]
        if not any(is_ignored(step, exclude) for step in steps):
            found.append(os.path.join(path, relative))
    return found


def guard_nbgrader(only_if_imported: bool = False) -> None:
    """nbgrader's converters copy only a submission's own regular files, and read no linked notebook.

    nbgrader copies "all other files" of a folder with ``find_all_files`` and ``shutil.copy``, which
    follow links, and reads each ``*.ipynb`` it globs, a link included. Both are narrowed here, once
    per process, for ``autograde``, ``generate_feedback`` and every other converter: from
    ``nbgrader_config.py`` when nbgrader's own commands load it (``only_if_imported``: a command of
    ours that reads the configuration without nbgrader does not import it for this), and wherever
    ours open nbgrader's API (``course_dir.open_api``).
    """
    import sys
    if only_if_imported and "nbgrader.converters.base" not in sys.modules:
        return
    from nbgrader import utils
    from nbgrader.converters import base
    if getattr(base, "_own_files_only", False):
        return
    glob_notebooks = base.BaseConverter.init_notebooks

    def init_notebooks(self):
        glob_notebooks(self)
        for assignment, notebooks in list(self.assignments.items()):
            own = {os.path.join(assignment, f) for f in own_files(assignment)[0]}
            for left in sorted(set(notebooks) - own):
                self.log.warning("Left out %s: not a regular file of the submission (a link?)", left)
            self.assignments[assignment] = [n for n in notebooks if n in own]

    utils.find_all_files = base.find_all_files = find_own_files
    base.BaseConverter.init_notebooks = init_notebooks
    base._own_files_only = True
