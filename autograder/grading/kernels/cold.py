"""A grading kernel started afresh, in its box.

Run as ``python -m autograder.grading.kernels.cold FENCE_JSON BOX_JSON -- KERNEL COMMAND``. Where
the fence has namespaces it re-runs itself under ``unshare`` in new mount, network, IPC and PID
namespaces (``--kill-child``: when the kernel manager kills this process, the whole namespace goes
with it); inside, ``enter`` puts it in its box, and it execs the kernel as PID 1 of its own PID
namespace, so every process the kernel starts dies with it. It is handed a pidfd of ``unshare``
(``--inside=FD``), so that it ends even if ``unshare`` is killed before the kernel has its user.
"""
import os
import sys

from . import parent_death
from .enter import enter
from .fence import Box, Fence


def main(argv=None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    parent = None
    if argv[0].startswith("--inside="):
        parent, argv = int(argv[0].split("=", 1)[1]), argv[1:]
    fence, box, command = Fence.from_json(argv[0]), Box.from_json(argv[1]), argv[3:]
    if fence.namespaces and parent is None:
        unshare = parent_death.handle()  # this process, which becomes unshare
        os.set_inheritable(unshare, True)
        os.execvp("unshare", ["unshare", "--mount", "--net", "--ipc", "--pid", "--fork", "--kill-child",
                              sys.executable, "-m", __spec__.name, f"--inside={unshare}", *argv])
    enter(fence, box, parent=parent)
    if parent is not None:
        os.close(parent)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
