"""A control group per kernel: memory, processes and CPU counted for it and all its children.

cgroup v1 (one hierarchy per controller, as here) or v2 (one unified hierarchy), whichever the
machine has. Each kernel's group is made under the grader's own (``<own>/autograd-course/box-<uid>``)
by the grader, which also reads its breach counters and removes it; the kernel only joins it.

Standard library only (imported by kernels before the repository is hidden).
"""
import os
import signal
import time

ROOT = "/sys/fs/cgroup"  # where the control groups are; with OWN_GROUPS, what a test points at a folder laid out so
OWN_GROUPS = "/proc/self/cgroup"  # this process's group in each hierarchy
CONTROLLERS = ("memory", "pids", "cpu")
PARENT = "autograd-course"
PERIOD = 100_000  # microseconds of CPU bandwidth accounting


def _own_groups() -> dict:
    """hierarchy -> this process's group in it ("" for v2's unified one)."""
    groups = {}
    try:
        with open(OWN_GROUPS) as handle:
            for line in handle:
                _, names, path = line.rstrip("\n").split(":", 2)
                for name in names.split(",") if names else [""]:
                    groups[name] = path
    except OSError:
        pass
    return groups


def version() -> str:
    if os.path.isdir(os.path.join(ROOT, "memory")) and os.path.exists(os.path.join(ROOT, "memory", "cgroup.procs")):
        return "v1"
    if os.path.exists(os.path.join(ROOT, "cgroup.controllers")):
        return "v2"
    return ""


def parents(which: str | None = None) -> dict:
    """controller -> the folder the kernels' groups are made in (v2: one folder for all three)."""
    which = which or version()
    own = _own_groups()
    if which == "v1":
        return {c: os.path.join(ROOT, c, own.get(c, "/").lstrip("/"), PARENT) for c in CONTROLLERS}
    if which == "v2":
        folder = os.path.join(ROOT, own.get("", "/").lstrip("/"), PARENT)
        return {c: folder for c in CONTROLLERS}
    return {}


def available() -> tuple[str, list[str]]:
    """The cgroup version kernels get groups in, and the controllers missing (all of them: none)."""
    if os.geteuid() != 0:
        return "", ["memory, processes and CPU (grading is not running as root)"]
    which = version()
    if not which:
        return "", [f"memory, processes and CPU (no cgroup file system at {ROOT})"]
    missing = []
    for controller, folder in parents(which).items():
        try:
            os.makedirs(folder, exist_ok=True)
            if which == "v2":
                _enable_v2(folder)
            if not os.access(folder, os.W_OK):
                raise OSError("not writable")
        except OSError as error:
            missing.append(f"{controller} ({error.strerror or error})")
    return (which, missing) if len(missing) < len(CONTROLLERS) else ("", missing)


def _enable_v2(folder: str) -> None:
    """v2 counts a controller in a group only if its parent hands it down."""
    for parent in (os.path.dirname(folder), folder):
        with open(os.path.join(parent, "cgroup.subtree_control"), "w") as handle:
            handle.write(" ".join(f"+{c}" for c in CONTROLLERS))


def paths(which: str, name: str) -> list[str]:
    """The folders of one kernel's group (one per v1 controller, one in v2)."""
    return sorted({os.path.join(folder, name) for folder in parents(which).values()})


def _write(folder: str, name: str, value) -> bool:
    try:
        with open(os.path.join(folder, name), "w") as handle:
            handle.write(str(value))
        return True
    except OSError:
        return False


def create(which: str, folders: list[str], memory: int, max_processes: int, cpu: float) -> None:
    """A fresh group (an old one of this name, left by a kernel restarted in the same box, is removed)."""
    remove(folders)
    for folder in folders:
        os.makedirs(folder, exist_ok=True)
        if which == "v1":
            controller = os.path.relpath(folder, ROOT).split(os.sep)[0]
            if controller == "memory" and memory:
                _write(folder, "memory.limit_in_bytes", memory)
                # Memory and swap together capped at the same: nothing swapped past the cap. Where the
                # kernel does not count swap (no memsw files), the group is kept from swapping instead.
                if not _write(folder, "memory.memsw.limit_in_bytes", memory):
                    _write(folder, "memory.swappiness", 0)
            elif controller == "pids" and max_processes:
                _write(folder, "pids.max", max_processes)
            elif controller == "cpu" and cpu:
                _write(folder, "cpu.cfs_period_us", PERIOD)
                _write(folder, "cpu.cfs_quota_us", int(cpu * PERIOD))
        else:
            if memory:
                _write(folder, "memory.max", memory)
                _write(folder, "memory.swap.max", 0)  # nothing swapped past the cap
            if max_processes:
                _write(folder, "pids.max", max_processes)
            if cpu:
                _write(folder, "cpu.max", f"{int(cpu * PERIOD)} {PERIOD}")


def join(folders) -> None:
    """Put the calling process (and so everything it starts) in the group."""
    for folder in folders:
        with open(os.path.join(folder, "cgroup.procs"), "w") as handle:
            handle.write(str(os.getpid()))


def _counter(folder: str, name: str, key: str) -> int:
    try:
        with open(os.path.join(folder, name)) as handle:
            for line in handle:
                parts = line.split()
                if len(parts) == 2 and parts[0] == key:
                    return int(parts[1])
    except (OSError, ValueError):
        pass
    return 0


def breaches(folders) -> dict:
    """How often the group hit its caps: {"memory": OOM kills, "processes": forks refused}."""
    seen = {"memory": 0, "processes": 0}
    for folder in folders:
        seen["memory"] += _counter(folder, "memory.oom_control", "oom_kill") + _counter(folder, "memory.events", "oom_kill")
        seen["processes"] += _counter(folder, "pids.events", "max")
    return seen


def peak_memory(folders) -> int:
    """The most memory the group has held at once, in bytes (0 where it is not counted)."""
    peaks = [0]
    for folder in folders:
        for name in ("memory.max_usage_in_bytes", "memory.peak"):  # v1, v2
            try:
                with open(os.path.join(folder, name)) as handle:
                    peaks.append(int(handle.read().split()[0]))
            except (OSError, ValueError, IndexError):
                pass
    return max(peaks)


def _members(folder: str) -> list[int]:
    try:
        with open(os.path.join(folder, "cgroup.procs")) as handle:
            return [int(line) for line in handle if line.strip()]
    except (OSError, ValueError):
        return []


def remove(folders, seconds: float = 5) -> None:
    """Kill whatever is left in the group and remove it."""
    deadline = time.monotonic() + seconds
    for folder in folders:
        while os.path.isdir(folder):
            if not _write(folder, "cgroup.kill", 1):  # v2 kills the whole group at once; v1 one by one
                for pid in _members(folder):
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except OSError:
                        pass
            try:
                os.rmdir(folder)
            except OSError:
                if time.monotonic() > deadline:
                    break
                time.sleep(0.01)
