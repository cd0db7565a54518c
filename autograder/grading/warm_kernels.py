"""Warm kernels: fork each grading kernel from a parent that has already imported everything.

A fresh kernel spends seconds importing torch, matplotlib, IPython and the course before the first
student line runs. Here one parent per worker, the *zygote*, imports them once (and runs a little of
each, single-threaded, so nothing starts a thread pool before a fork), then forks a new kernel for
every notebook: each notebook still gets a fresh interpreter state of its own, but not the imports.

The zygote lives inside the sandbox's mount and network namespaces (course files hidden, no
network), as root. For each kernel it forks a supervisor, which enters a new PID namespace and forks
the kernel as its PID 1: the kernel drops to the unprivileged user, gets its rlimits and its own
folder as HOME and TMPDIR, and every process it starts dies with it. The kernel manager launches a
tiny client (``warm_kernel_client.py``) in place of the kernel; the client asks the zygote for a
kernel, forwards signals to it and exits with it; if the client is killed, the supervisor kills the
kernel.

This module is imported by the sandbox before it hides the repository: keep its imports stdlib-only.
"""
import ctypes
import importlib
import json
import os
import resource
import select
import signal
import socket
import sys

CLONE_NEWPID, CLONE_NEWNS = 0x20000000, 0x00020000
MS_NOSUID, MS_NODEV, MS_NOEXEC = 2, 4, 8
PR_SET_PDEATHSIG = 1
# ipykernel.ipkernel imports its debugger (debugpy): 0.2 s a kernel when it is left to each fork
PRELOAD = ["numpy", "torch", "matplotlib", "matplotlib.pyplot", "IPython", "ipykernel.kernelapp", "ipykernel.ipkernel",
           "ipykernel.zmqshell", "ipykernel.debugger", "ipywidgets",
           "course.kernel_side", "course.exercises.graph", "course.exercises.backward", "course.exercises.no_grad",
           "course.exercises.zero_grad", "course.visuals.draw_graph", "course.visuals.graph_text",
           "course.visuals.gradient_plot", "course.visuals.quick_check", "course.visuals.slope_explorer"]
SINGLE_THREADED = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                   "PYDEVD_DISABLE_FILE_VALIDATION": "1"}  # and no debugger warning on import
INLINE = "module://matplotlib_inline.backend_inline"


def _libc():
    return ctypes.CDLL(None, use_errno=True)


def _warm_up() -> None:
    """Run a little of what lessons run, so the first student cell in each kernel does not pay it."""
    import io

    import matplotlib.pyplot as plt
    import torch
    torch.set_num_threads(1)
    x = torch.randn(4, 3, dtype=torch.float64, requires_grad=True)
    (torch.sin(x) * x).sum().backward()
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.Tanh())
    torch.optim.SGD(model.parameters(), lr=0.1).step()
    figure = plt.figure(figsize=(2, 2))
    figure.gca().plot([0, 1], [1, 0])
    figure.savefig(io.BytesIO(), format="png")
    plt.close(figure)


def _preload() -> None:
    os.environ.update(SINGLE_THREADED)
    os.environ.setdefault("MPLBACKEND", INLINE)
    for name in PRELOAD:
        try:
            importlib.import_module(name)
        except ImportError:  # a module a later course version dropped: only slower, never wrong
            pass
    _warm_up()
    threads = len(os.listdir("/proc/self/task")) if os.path.isdir("/proc/self/task") else 1
    if threads > 1:
        print(f"warm kernels: {threads} threads before fork", file=sys.stderr, flush=True)


def serve(socket_path: str, namespaces: bool, owner: int = 0) -> None:
    """The zygote: preload, then fork a supervised kernel for each request on ``socket_path``.

    It ends when ``owner`` (the process that started it) ends, however that ends: a grade command
    killed outright runs no clean-up, and its zygote would otherwise outlive it, torch and all.
    Its supervisors and their kernels die with it (PR_SET_PDEATHSIG).
    """
    owner_gone = _watch(owner)
    _preload()
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
                _supervise(connection, request, namespaces)
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


def _supervise(connection, request: dict, namespaces: bool) -> None:
    """Between client and kernel: start it in its own PID namespace, report its end, kill it if orphaned."""
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    os.setsid()
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # dies with the zygote
    if namespaces and _libc().unshare(CLONE_NEWPID) != 0:
        namespaces = False
    kernel = os.fork()
    if kernel == 0:
        connection.close()
        try:
            _become_kernel(request, namespaces)
        finally:
            os._exit(1)
    connection.sendall((json.dumps({"pid": kernel}) + "\n").encode())
    try:  # readable the moment the kernel ends, so its end is reported at once, not at the next poll
        watched = [connection, os.pidfd_open(kernel)]
    except (AttributeError, OSError):
        watched = [connection]
    while True:
        ready, _, _ = select.select(watched, [], [], 0.2)
        if connection in ready and not connection.recv(64):  # the client is gone: so is its kernel
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


def _own_proc() -> None:
    """A /proc that shows only this kernel's PID namespace, not every process on the host."""
    libc = _libc()
    if libc.unshare(CLONE_NEWNS) != 0 or \
            libc.mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None) != 0:
        raise OSError(ctypes.get_errno(), "could not give the kernel its own /proc")


def _become_kernel(request: dict, namespaces: bool) -> None:
    _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    cwd = request["cwd"]
    devnull = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(devnull, fd)
    for path in request.get("writable", []):
        if os.path.exists(path):
            os.chown(path, request["uid"], request["gid"])
            for name in os.listdir(path) if os.path.isdir(path) else []:
                os.chown(os.path.join(path, name), request["uid"], request["gid"])
    os.chdir(cwd)
    for name in ("JUPYTER_CONFIG_DIR", "JUPYTER_DATA_DIR", "JUPYTER_RUNTIME_DIR"):
        os.environ.pop(name, None)
    os.environ.update(HOME=cwd, TMPDIR=cwd, MPLCONFIGDIR=os.path.join(cwd, ".matplotlib"),
                      IPYTHONDIR=os.path.join(cwd, ".ipython"))
    for which, value in ((resource.RLIMIT_AS, request.get("memory")), (resource.RLIMIT_FSIZE, request.get("max_file")),
                         (resource.RLIMIT_NPROC, request.get("max_processes")), (resource.RLIMIT_CORE, 0)):
        if value is not None and (value or which == resource.RLIMIT_CORE):
            resource.setrlimit(which, (value, value))
    if namespaces:
        _own_proc()
        os.setgroups([])
        os.setgid(request["gid"])
        os.setuid(request["uid"])
        _libc().prctl(PR_SET_PDEATHSIG, signal.SIGKILL)  # again: changing the user cleared it
    sys.path[:] = [p for p in sys.path if p not in ("", ".")]
    sys.argv = ["ipykernel_launcher", *request["arguments"]]
    from ipykernel.kernelapp import IPKernelApp
    IPKernelApp.launch_instance()
    os._exit(0)
