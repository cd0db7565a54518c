"""A process of the fence ends when the one that forked it ends, even if that came first.

PR_SET_PDEATHSIG only covers a parent that dies after the call. A grade command killed outright
takes its zygote with it, and a supervisor (or kernel) forked a moment before would otherwise miss
the signal and live on as an orphan, with its client waiting on it. So the parent hands the child
a pidfd of itself (``handle``), and the child, once the signal is set, ends at once if that pidfd
already says the parent is gone (``die_with``). Standard library only.
"""
import ctypes
import os
import select
import signal

PR_SET_PDEATHSIG = 1
_libc = ctypes.CDLL(None, use_errno=True)


def handle() -> int:
    """A pidfd of this process, for a child to pass to ``die_with`` (in this process or after exec)."""
    return os.pidfd_open(os.getpid())


def gone(parent: int) -> bool:
    return bool(select.select([parent], [], [], 0)[0])


def die_with(parent: int | None) -> None:
    """SIGKILL this process when its parent ends; end it now if ``parent`` (a pidfd) has ended already.

    Called again after a change of user, which clears the signal.
    """
    _libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if parent is not None and gone(parent):
        os._exit(1)
