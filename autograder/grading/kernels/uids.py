"""A uid per live kernel, from a configured range, as IOI's ``isolate`` gives each box its own.

Two kernels never share a uid, even across the worker processes of a batch: a uid is taken by
holding an exclusive lock on its file in a root-only folder, released when the kernel is done (or
when the process holding it ends, however it ends). A path a kernel guesses in a sibling's folder
is then unreadable as well as absent, and per-user limits (RLIMIT_NPROC) count one kernel only.
"""
import fcntl
import os
import tempfile

FOLDER = os.path.join(tempfile.gettempdir(), "autograd-course-uids")


class NoFreeUid(RuntimeError):
    pass


def take(first: int, count: int) -> tuple[int, int]:
    """A free uid of ``first .. first + count - 1`` and the lock that holds it (give it to ``give_back``)."""
    os.makedirs(FOLDER, mode=0o700, exist_ok=True)
    start = os.getpid() % max(count, 1)  # workers start their search at different places
    for k in range(count):
        uid = first + (start + k) % count
        fd = os.open(os.path.join(FOLDER, str(uid)), os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        return uid, fd
    raise NoFreeUid(f"all {count} kernel uids from {first} are in use: raise GradingKernels.uid_count")


def give_back(lock: int) -> None:
    try:
        os.close(lock)
    except OSError:
        pass
