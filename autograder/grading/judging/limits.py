"""The limits a notebook meets besides its output caps, each said as the reason a cell stopped: its
wall-clock time (restarts and replays included), its box's memory and process caps, and a
connection the grader cut for a message part too large.
"""
import contextlib
import time

MEMORY_ERRORS = ("MemoryError", "can't allocate memory", "Cannot allocate memory", "std::bad_alloc")


class Deadline:
    """One notebook's wall-clock limit, counted from when its grading starts, the grader's own work
    between cells (``paused``) left out."""

    def __init__(self, seconds: int):
        self.seconds, self.started = seconds, time.monotonic()

    def remaining(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    @contextlib.contextmanager
    def paused(self):
        """The clock stands still in this block."""
        began = time.monotonic()
        try:
            yield
        finally:
            self.started += time.monotonic() - began

    def cell_timeout(self, timeout: int | None) -> int:
        """A cell's timeout, never past the notebook's own deadline."""
        left = max(1, int(self.remaining()) + 1)
        return left if timeout is None else min(timeout, left)

    def why(self) -> str:
        return f"the notebook ran past its time limit of {self.seconds} s"


def memory_cap(km) -> str:
    return f"it went past {_memory_limit(km)}"


def _memory_limit(km) -> str:
    return f"the memory limit of {km.fence.memory / 1024**3:g} GiB"


def breach(km) -> str:
    """Why the kernel's box says it went past a cap since last asked ('' if it did not)."""
    hit = km.breaches() if km is not None and hasattr(km, "breaches") else []
    if "memory" in hit:
        return f"{memory_cap(km)} (its processes together)"
    if "processes" in hit:
        return f"it started more than the {km.fence.max_processes} processes and threads a notebook may have"
    return ""


def out_of_memory(cell, km) -> str:
    """Why a cell that reported running out of memory stopped ('' if none of its errors says so)."""
    said = any(o.get("output_type") == "error"
               and any(m in f"{o.get('ename')}: {o.get('evalue')}" for m in MEMORY_ERRORS)
               for o in cell.get("outputs", []))
    return memory_cap(km) if said else ""


def memory_at_death(km) -> str:
    """Why a kernel that died holding over a quarter of its memory cap died ('' if it held less).

    The cap is also per process (RLIMIT_AS): an allocation that fails where Python cannot raise
    MemoryError (a library's thread, the kernel sending its reply) ends the process, and no OOM kill
    is counted. The cap counts address space, most of it the kernel's libraries, while the group
    counts only the pages the kernel filled itself: so a quarter of the cap, held, is near its end."""
    peak = km.peak_memory() if km is not None and hasattr(km, "peak_memory") else 0
    if not peak or peak < km.fence.memory / 4:
        return ""
    return (f"the kernel died while running this cell holding {peak / 1024**3:.1f} GiB: it most likely went "
            f"past {_memory_limit(km)}")


def cut(km, kc) -> str:
    """Why the grader cut the kernel's connection ('' if it did not)."""
    channel = getattr(km, "cut", "")
    if not channel:
        return ""
    what = (f"it printed more than the output limit in one message (a part over {kc.max_part} bytes)"
            if channel == "iopub" else f"it sent a message part over {kc.max_part} bytes on its {channel} channel")
    return f"{what} and the grader cut the connection"


def why_it_died(km, kc, asking: bool, died_message: str) -> str:
    """A kernel cut off for what it sent did not die: the grader stopped listening to it. As with
    the output caps, a cell's cut stops the notebook, a trial's costs that exercise (the kernel is
    restarted and the cells after it run)."""
    why = cut(km, kc)
    if not why:
        return memory_at_death(km) or died_message
    return f"this cell was stopped: {why}" if asking else "the grader stopped this cell"
