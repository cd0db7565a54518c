"""Warm kernels: fork each grading kernel from a parent that has already imported everything.

A fresh kernel imports torch, matplotlib, IPython and the course before the first student line
runs, most of what its start costs (``benchmarks/grading.py`` compares cold and warm starts). Here
one parent per batch, the *zygote*, imports them once, with the collector off and then frozen
(``preloads.warming``), and runs a little of each, single-threaded, so nothing starts a thread pool
before a fork. Then it forks a new kernel for every notebook: each notebook still gets a fresh
interpreter state of its own, but not the imports. What it imports is
found, not listed (``preloads.py``): the libraries, and every module of the student package, so a
new lesson is warm as soon as it exists.

The zygote runs as root in mount and network namespaces of its own, in a root holding the system,
Python, the student package and its own folder (``python -m autograder.grading.kernels.zygote``),
started with an environment that is already the fence's allowlist. For each kernel it forks a
supervisor, which enters new PID, mount, network and IPC namespaces and forks the kernel as their
PID 1; the kernel enters its box (``enter.enter``: its own root without the zygote's folder, its
control group, its uid, its limits), exactly as a cold kernel does. The grading process asks for
the kernel on the zygote's socket and follows it there (``forked_kernel.py``): the supervisor
answers with the kernel's pid, then with its exit code, and kills the kernel if the connection
closes.

Keep this module's imports stdlib-only: it runs before the repository is hidden.
"""
import ctypes
import importlib
import json
import os
import select
import signal
import socket
import sys

from ..library_patches import ipykernel_module_walk
from . import parent_death
from .enter import build_root, enter
from .fence import KERNEL_ENVIRONMENT, Box, Fence
from .preloads import warming, zygote_modules

CLONE_NEWNS, CLONE_NEWIPC, CLONE_NEWNET, CLONE_NEWPID = 0x00020000, 0x08000000, 0x40000000, 0x20000000


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _warm_up() -> None:
    """Run a little of what lessons run, so the first student cell in each kernel does not pay it.

    The figure is drawn without pyplot, as the inline backend prints one: pyplot must not pick its
    backend here. The inline backend hooks itself into the IPython shell when it is first imported,
    and the zygote has no shell; a kernel that inherited it imported would never show a figure.
    """
    import torch
    from IPython.core.pylabtools import print_figure
    from matplotlib.figure import Figure
    torch.set_num_threads(1)
    x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    (torch.sin(x) * x).sum().backward()
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh())
    torch.optim.SGD(model.parameters(), lr=0.1).step()
    figure = Figure(figsize=(2, 2))
    figure.gca().plot([0, 1], [1, 0])
    figure.gca().set_title("warm")
    print_figure(figure, "png", bbox_inches="tight")


def _preload(fence: Fence) -> None:
    os.environ.update(KERNEL_ENVIRONMENT)
    with warming():
        for name in zygote_modules():
            try:
                importlib.import_module(name)
            except ImportError:  # a library this machine lacks: only slower, never wrong
                pass
        _warm_up()
        if fence.library_patches:
            ipykernel_module_walk.apply()
    if "matplotlib_inline.backend_inline" in sys.modules:  # see _warm_up: figures would be lost
        print("warm kernels: the inline backend was imported before any kernel", file=sys.stderr, flush=True)
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 1
    if threads > 1:
        print(f"warm kernels: {threads} threads before fork", file=sys.stderr, flush=True)


def serve(socket_path: str, fence: Fence, owner: int = 0) -> None:
    """The zygote: preload, then fork a supervised kernel for each request on ``socket_path``.

    It ends when ``owner`` (the process that started it) ends, however that ends: a grade command
    killed outright runs no clean-up, and its zygote would otherwise outlive it, torch and all.
    Its supervisors and their kernels die with it (``parent_death``).
    """
    owner_gone = _watch(owner)
    zygote = parent_death.handle()
    _preload(fence)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    os.chmod(socket_path, 0o600)  # only root (the grading worker) may ask for kernels
    listener.listen(8)
    signal.signal(signal.SIGCHLD, lambda *_: _reap())
    while True:
        if owner_gone is not None and owner_gone in select.select([listener, owner_gone], [], [])[0]:
            os._exit(0)
        try:
            connection, _ = listener.accept()
        except InterruptedError:
            continue
        request = json.loads(connection.makefile("r").readline())
        if os.fork() == 0:
            listener.close()
            if owner_gone is not None:  # a kernel gets no handle on the grading process
                os.close(owner_gone)
            try:
                _supervise(connection, request, fence.namespaces, zygote)
            finally:
                os._exit(1)
        connection.close()


def _watch(owner: int):
    """A file descriptor readable once ``owner`` has ended (None: no owner to watch)."""
    if not owner:
        return None
    try:
        return os.pidfd_open(owner)
    except ProcessLookupError:  # gone before the zygote even started
        os._exit(0)


def _reap() -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def _supervise(connection, request: dict, namespaces: bool, zygote: int) -> None:
    """Between client and kernel: start it in its own PID namespace, report its end, kill it if orphaned."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()
    parent_death.die_with(zygote)
    os.close(zygote)
    if namespaces and _libc().unshare(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) != 0:
        os._exit(1)  # never a kernel outside its box: the asker reads no pid, and says so
    supervisor = parent_death.handle()
    kernel = os.fork()
    if kernel == 0:
        connection.close()
        try:
            _become_kernel(request, supervisor)
        finally:
            os._exit(1)
    os.close(supervisor)
    connection.sendall((json.dumps({"pid": kernel}) + "\n").encode())
    try:  # readable the moment the kernel ends, so its end is reported at once, not at the next poll
        watched = [connection, os.pidfd_open(kernel)]
    except (AttributeError, OSError):
        watched = [connection]
    while True:
        ready, _, _ = select.select(watched, [], [], 0.2)
        if connection in ready and not connection.recv(64):  # the asker is gone: so is its kernel
            os.kill(kernel, signal.SIGKILL)
            watched = watched[1:]
        done, status = os.waitpid(kernel, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(status)
            try:
                connection.sendall((json.dumps({"exit": code}) + "\n").encode())
            except OSError:
                pass
            os._exit(0)


def _become_kernel(request: dict, supervisor: int) -> None:
    parent_death.die_with(supervisor)
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    enter(Fence.from_json(request["fence"]), Box.from_json(request["box"]), parent=supervisor)
    os.close(supervisor)  # a kernel gets no handle on its supervisor
    sys.path[:] = [p for p in sys.path if p not in ("", ".")]
    sys.argv = ["ipykernel_launcher", *request["arguments"]]
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance()
    os._exit(0)


def _remove_when_gone(area: str) -> None:
    """A child left outside the zygote's root removes its folder (sockets, scratch copies, log) once it
    ends, however it ends: killed with its owner, no clean-up of the owner's runs. It watches the
    zygote through a pidfd of its own, so no kernel inherits a handle on it."""
    zygote = os.getpid()
    if os.fork():
        return
    try:
        try:
            watched = os.pidfd_open(zygote)
            if os.getppid() == zygote:  # else it is gone already
                select.select([watched], [], [])
        except ProcessLookupError:
            pass
        import shutil
        shutil.rmtree(area, ignore_errors=True)
    finally:
        os._exit(0)


def main(argv=None) -> None:
    """``python -m autograder.grading.kernels.zygote SOCKET FENCE_JSON OWNER``: fence itself in, then serve."""
    socket_path, fence_json, owner = argv or sys.argv[1:]
    fence = Fence.from_json(fence_json)
    _remove_when_gone(os.path.dirname(socket_path))
    if fence.namespaces:
        if _libc().unshare(CLONE_NEWNS | CLONE_NEWNET | CLONE_NEWIPC) != 0:
            raise OSError(ctypes.get_errno(), "the zygote could not get namespaces of its own")
        build_root(fence.keep, 64 * 1024**2, writable=[os.path.dirname(socket_path)], private_proc=False,
                   hidden=fence.hidden, sys_folders=("/sys",))
    os.environ.update(HOME="/tmp", MPLCONFIGDIR="/tmp/matplotlib")
    serve(socket_path, fence, owner=int(owner))


if __name__ == "__main__":
    main()
