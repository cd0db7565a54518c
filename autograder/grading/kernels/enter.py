"""The one function that puts a grading kernel in its box: ``enter(fence, box)``.

Called in the process that becomes the kernel, as root, after it has got its own mount, PID,
network and IPC namespaces (``cold.py`` through ``unshare``, ``zygote.py`` through unshare(2)), and
before it runs a line of the kernel:

- it joins the box's control group (memory, processes, CPU for it and all its children);
- it builds a new root and enters it: the system's folders and the fence's kept folders (Python,
  the student package) read-only, the instructor package hidden inside them, a /dev of a few
  devices and a /sys of the processors only (no other box's control group), its own socket folder, and one private tmpfs of the fence's
  scratch size for everything it may write (its working folder, a copy of the one it was given,
  /tmp, /var/tmp, /dev/shm): no sibling's folder, connection file or socket, no zygote socket or
  log, no course files, and no way to fill the grader's disk;
- its environment becomes the fence's allowlist;
- it gets the fence's rlimits and drops to the box's own uid (and gid).

Where namespaces are refused it gets the rlimits and the environment only. Standard library only.
"""
import ctypes
import os
import resource
import shutil

from . import cgroups, parent_death
from .fence import STAGE, Box, Fence

SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
# of /sys only what numerical libraries read (the processors, the memory nodes): no control group, no device
SYS_FOLDERS = ("/sys/devices/system/cpu", "/sys/devices/system/node")
# of /dev only these devices, each bound from the host's; no disk, no fuse, no host terminal
DEVICES = ("null", "zero", "full", "random", "urandom", "tty")
DEVICE_LINKS = {"fd": "/proc/self/fd", "stdin": "/proc/self/fd/0", "stdout": "/proc/self/fd/1",
                "stderr": "/proc/self/fd/2", "ptmx": "pts/ptmx"}
MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC, MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = \
    1, 2, 4, 8, 32, 4096, 16384, 1 << 18
_libc = ctypes.CDLL(None, use_errno=True)


def mount(source: str, target: str, kind: str | None = None, flags: int = 0, data: str | None = None) -> None:
    if _libc.mount(source.encode(), target.encode(), kind.encode() if kind else None, flags,
                   data.encode() if data else None) != 0:
        error = ctypes.get_errno()
        raise OSError(error, f"mount {source} on {target}: {os.strerror(error)}")


def _bind(path: str, inside: str, read_only: bool) -> None:
    mount(path, inside, None, MS_BIND | MS_REC)
    if read_only:
        mount("none", inside, None, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID)


def _minimal_dev(root: str) -> None:
    """A /dev of its own: a few devices bound from the host's, a private pseudo-terminal instance."""
    mount("tmpfs", root + "/dev", "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,mode=755")
    for name in DEVICES:
        if os.path.exists(f"/dev/{name}"):
            open(f"{root}/dev/{name}", "w").close()
            mount(f"/dev/{name}", f"{root}/dev/{name}", None, MS_BIND)
    os.makedirs(root + "/dev/pts")
    try:  # its own instance: no other terminal of the machine's is in it
        mount("devpts", root + "/dev/pts", "devpts", MS_NOSUID | MS_NOEXEC, "newinstance,ptmxmode=0666,mode=620")
    except OSError:
        pass
    for name, target in DEVICE_LINKS.items():
        os.symlink(target, f"{root}/dev/{name}")


def _hide(path: str) -> None:
    """An empty, read-only folder over ``path`` (the instructor package inside a kept site-packages)."""
    mount("tmpfs", path, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV, "size=4k,mode=555")


def build_root(keep, scratch: int, owner: int = 0, writable=(), work: str = "", private_proc: bool = True,
               hidden=(), sys_folders=SYS_FOLDERS) -> None:
    """Build a root holding only what a kernel needs at STAGE, and enter it (chroot).

    An allowlist, not a list of things to hide: everything of the machine not named here is absent.
    ``writable`` folders are bound read-write at their own paths (the sockets, which the grader
    connects to); ``work`` is copied into the scratch tmpfs and shown at its own path. The zygote, which
    puts each kernel it forks in the kernel's control group, keeps all of ``/sys`` (``sys_folders``).
    """
    mount("none", "/", None, MS_REC | MS_PRIVATE)
    root = STAGE
    mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=16m,mode=755")
    for path in SYSTEM_FOLDERS:
        inside = root + path
        if os.path.islink(path):  # /bin -> usr/bin on a merged-/usr system
            os.symlink(os.readlink(path), inside)
        elif os.path.isdir(path):
            os.makedirs(inside)
            _bind(path, inside, read_only=True)
    for path in sys_folders:
        if os.path.isdir(path):
            os.makedirs(root + path)
            _bind(path, root + path, read_only=True)
    os.makedirs(root + "/dev")
    _minimal_dev(root)
    os.makedirs(root + "/proc")
    if private_proc:  # only this PID namespace's processes
        mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC)
    else:
        _bind("/proc", root + "/proc", read_only=False)
    scratch_root = root + "/tmp"
    os.makedirs(scratch_root)
    mount("tmpfs", scratch_root, "tmpfs", MS_NOSUID | MS_NODEV, f"size={max(scratch, 1 << 20)},mode=1777")
    for path, name in (("/var/tmp", ".var-tmp"), ("/dev/shm", ".shm")):  # one scratch space, one cap
        os.makedirs(os.path.join(scratch_root, name), mode=0o1777)
        os.chmod(os.path.join(scratch_root, name), 0o1777)
        os.makedirs(root + path, exist_ok=True)
        _bind(os.path.join(scratch_root, name), root + path, read_only=False)
    for path in dict.fromkeys(os.path.realpath(p) for p in keep):
        if os.path.isdir(path):
            os.makedirs(root + path, exist_ok=True)
            _bind(path, root + path, read_only=True)
    for path in hidden:
        if os.path.isdir(root + path):
            _hide(root + path)
    for path in writable:
        if os.path.isdir(path):
            os.makedirs(root + path, exist_ok=True)
            _bind(path, root + path, read_only=False)
    if work:
        copy = os.path.join(scratch_root, ".work")
        shutil.copytree(work, copy, symlinks=True) if os.path.isdir(work) else os.makedirs(copy)
        _chown_tree(copy, owner)
        os.makedirs(root + work, exist_ok=True)
        _bind(copy, root + work, read_only=False)
    os.makedirs(root + STAGE, exist_ok=True)  # where a zygote's kernels build their own roots
    os.chroot(root)
    os.chdir("/")


def _chown_tree(path: str, uid: int) -> None:
    if not uid:
        return
    for folder, folders, files in os.walk(path):
        os.lchown(folder, uid, uid)
        for name in folders + files:
            os.lchown(os.path.join(folder, name), uid, uid)


def _limit(fence: Fence, box: Box) -> None:
    """rlimits: per process, except the process count. RLIMIT_NPROC counts a user's processes, so it
    caps a kernel only when the kernel has a uid of its own; where a control group counts them it is
    left to the group (which also records what it refused), and a shared uid is never capped by it."""
    processes = fence.max_processes if fence.namespaces and not box.cgroups else 0
    for which, value in ((resource.RLIMIT_AS, fence.memory), (resource.RLIMIT_FSIZE, fence.max_file),
                         (resource.RLIMIT_NPROC, processes), (resource.RLIMIT_CORE, 0)):
        if value or which == resource.RLIMIT_CORE:
            resource.setrlimit(which, (value, value))


def enter(fence: Fence, box: Box, parent: int | None = None) -> None:
    """Put this process in ``box``, fenced by ``fence``; afterwards it is the kernel's user.

    ``parent``: a pidfd of the process it must end with (``parent_death``).
    """
    cgroups.join(box.cgroups)
    environment = fence.environment_for(box, dict(os.environ))
    if fence.namespaces:
        build_root(fence.keep, fence.scratch, owner=box.uid, writable=[box.sockets], work=box.work,
                   hidden=fence.hidden)
        for path in [box.sockets] + [os.path.join(box.sockets, n) for n in os.listdir(box.sockets)]:
            os.chown(path, box.uid, box.uid)
        os.chmod(box.sockets, 0o700)
    os.chdir(box.work if os.path.isdir(box.work) else "/tmp")
    os.environ.clear()
    os.environ.update(environment)
    _limit(fence, box)
    if fence.namespaces:
        os.setgroups([])
        os.setgid(box.uid)
        os.setuid(box.uid)
        parent_death.die_with(parent)  # changing the user cleared the signal
