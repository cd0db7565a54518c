"""Start a grading kernel fenced in: no network, no view of the answers, capped, and killed whole.

Run as ``python -m autograder.grading.sandbox [options] -- KERNEL COMMAND``. As root on Linux it
re-runs itself under ``unshare`` in new mount, network and PID namespaces, then, inside them:

- builds a new root holding only the system's folders (read-only), the ``--keep`` folders (the
  submission's own folder, the student package, the Python installation, the kernel's socket
  folder) and private ``/tmp``, ``/var/tmp`` and ``/dev/shm``, and enters it: the course directory
  with ``source/``, the gradebook and other students' submissions, this repository with the
  grader's references, any other copy of the course and every home folder are simply not there;
- leaves the kernel no network but its own unconfigured loopback;
- caps its address space (``--memory``), file size and process count with rlimits;
- drops to an unprivileged user (``--uid``, ``--gid``) and execs the kernel as PID 1 of its own
  PID namespace, so every process it starts dies with it.

Where namespaces are refused (not root, a locked-down container), ``probe()`` says why at the start
of grading and kernels run with the rlimits only (``--no-namespaces``).
"""
import argparse
import os
import resource
import shutil
import subprocess
import sys

from . import warm_kernels  # imported before the repository is hidden; stdlib-only at import

STAGE = "/mnt"  # an existing folder: the kernel's new root, a tmpfs seen only inside the namespace
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc", "/dev", "/sys", "/proc")
SCRATCH_FOLDERS = ("/tmp", "/var/tmp", "/dev/shm")


def probe() -> str | None:
    """None when kernels can be fenced in here; otherwise the reason they cannot."""
    if not sys.platform.startswith("linux"):
        return f"namespaces are Linux-only (this is {sys.platform})"
    if os.geteuid() != 0:
        return "grading is not running as root, so it cannot create namespaces or switch users"
    if not shutil.which("unshare"):
        return "the unshare command (util-linux) is not installed"
    if not os.path.isdir(STAGE):
        return f"{STAGE} does not exist"
    done = subprocess.run(["unshare", "--mount", "--net", "--pid", "--fork", "true"], capture_output=True, text=True)
    if done.returncode:
        return f"unshare was refused: {done.stderr.strip() or done.returncode}"
    return None


def _mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


def _fence(keep: list[str], tmp_size: str, shared_tmp: bool = False) -> None:
    """Inside the new mount namespace: build a root that holds only what a kernel needs, and enter it.

    An allowlist, not a list of things to hide: the system's own folders (read-only), the ``keep``
    folders, and fresh, private, size-capped /tmp, /var/tmp and /dev/shm. Every other file of the
    machine (the course, this repository and any other copy of it, home folders) is simply absent.
    """
    _mount("--make-rprivate", "/")
    root = STAGE
    _mount("-t", "tmpfs", "-o", "size=16m,mode=755", "tmpfs", root)
    for path in SYSTEM_FOLDERS:
        inside = root + path
        if os.path.islink(path):  # /bin -> usr/bin on a merged-/usr system
            os.symlink(os.readlink(path), inside)
        elif os.path.isdir(path):
            os.makedirs(inside)
            _mount("--rbind", path, inside)
            if path not in ("/dev", "/proc"):
                _mount("-o", "remount,bind,ro", inside)
    # a zygote's scratch folders outlive its kernels: they get a folder of their own instead
    mode = "755" if shared_tmp else "1777"
    for path in SCRATCH_FOLDERS:
        os.makedirs(root + path, exist_ok=True)
        _mount("-t", "tmpfs", "-o", f"size={tmp_size},mode={mode}", "tmpfs", root + path)
    for path in dict.fromkeys(os.path.realpath(p) for p in keep):
        if os.path.isdir(path):
            os.makedirs(root + path, exist_ok=True)
            _mount("--rbind", path, root + path)
    os.chroot(root)
    os.chdir("/")


def _limit(memory: int, max_file: int, max_processes: int) -> None:
    for which, value in ((resource.RLIMIT_AS, memory), (resource.RLIMIT_FSIZE, max_file),
                         (resource.RLIMIT_NPROC, max_processes), (resource.RLIMIT_CORE, 0)):
        if value:
            resource.setrlimit(which, (value, value))


def _drop(uid: int, gid: int, writable: list[str]) -> None:
    for path in writable:  # the folder and what is directly in it (the connection file, say)
        if os.path.exists(path):
            os.chown(path, uid, gid)
            for name in os.listdir(path) if os.path.isdir(path) else []:
                os.chown(os.path.join(path, name), uid, gid)
    os.setgroups([])
    os.setgid(gid)
    os.setuid(uid)


def _options(argv):
    parser = argparse.ArgumentParser(prog="autograder.grading.sandbox")
    parser.add_argument("--keep", action="append", default=[])
    parser.add_argument("--writable", action="append", default=[], help="kept paths given to the kernel's user")
    parser.add_argument("--memory", type=int, default=0, help="address-space cap in bytes (0: none)")
    parser.add_argument("--max-file", type=int, default=0)
    parser.add_argument("--max-processes", type=int, default=0)
    parser.add_argument("--tmp-size", default="256m")
    parser.add_argument("--uid", type=int, default=65534)
    parser.add_argument("--gid", type=int, default=65534)
    parser.add_argument("--no-namespaces", action="store_true")
    parser.add_argument("--zygote", default="", help="serve warm kernels on this socket instead of running a command")
    parser.add_argument("--owner", type=int, default=0, help="the zygote ends when this process does")
    parser.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    options = parser.parse_args(argv)
    if options.command[:1] == ["--"]:
        options.command = options.command[1:]
    return options


def main(argv=None) -> None:
    argv = list(sys.argv[1:] if argv is None else argv)
    options = _options(argv)
    if not options.no_namespaces and not options.inside:
        # --kill-child: when the kernel manager kills this process, the whole namespace goes with it
        # a zygote gets no PID namespace of its own: each kernel it forks gets one
        pid = [] if options.zygote else ["--pid", "--mount-proc"]
        os.execvp("unshare", ["unshare", "--mount", "--net", *pid, "--fork", "--kill-child",
                              sys.executable, "-m", "autograder.grading.sandbox", "--inside", *argv])
    if options.zygote:
        if options.inside:
            _fence(options.keep, options.tmp_size, shared_tmp=True)
            os.environ.update(HOME="/tmp", MPLCONFIGDIR="/tmp/matplotlib")
        warm_kernels.serve(options.zygote, namespaces=options.inside, owner=options.owner)
        return
    home = "/tmp/home"
    if options.inside:
        cwd = os.getcwd()  # the kernel's own folder, which is kept: the same path inside the new root
        _fence(options.keep, options.tmp_size)
        os.chdir(cwd if os.path.isdir(cwd) else "/tmp")
        os.makedirs(home, exist_ok=True)
        os.chown(home, options.uid, options.gid)
        os.environ.update(HOME=home, MPLCONFIGDIR=os.path.join(home, "matplotlib"),
                          IPYTHONDIR=os.path.join(home, "ipython"))
        for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
            os.environ.pop(name, None)
    _limit(options.memory, options.max_file, options.max_processes)
    if options.inside:
        _drop(options.uid, options.gid, options.writable)
    os.execvp(options.command[0], options.command)


if __name__ == "__main__":
    main()
