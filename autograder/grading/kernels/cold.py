"""A grading kernel started afresh, in its box.

Run as ``python -m autograder.grading.kernels.cold FENCE_JSON BOX_JSON -- KERNEL COMMAND``. Where
the fence has namespaces it re-runs itself under ``unshare`` in new mount, network, IPC and PID
namespaces (``--kill-child``: when the kernel manager kills this process, the whole namespace goes
with it); inside, ``enter`` puts it in its box, and it execs the kernel as PID 1 of its own PID
namespace, so every process the kernel starts dies with it.
"""
import os
import sys

from .enter import enter
from .fence import Box, Fence


def main(argv=None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    inside = argv[:1] == ["--inside"]
    if inside:
        argv = argv[1:]
    fence, box, command = Fence.from_json(argv[0]), Box.from_json(argv[1]), argv[3:]
    if fence.namespaces and not inside:
        os.execvp("unshare", ["unshare", "--mount", "--net", "--ipc", "--pid", "--fork", "--kill-child",
                              sys.executable, "-m", __spec__.name, "--inside", *argv])
    enter(fence, box)
    os.execvp(command[0], command)


if __name__ == "__main__":
    main()
