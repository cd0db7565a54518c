"""How grading kernels start: inside the sandbox, over IPC sockets, cold or forked warm.

IPC (Unix sockets in a private folder) instead of TCP: the sandboxed kernel has no network to
listen on, and the "running over TCP without encryption" warning no longer shows once per notebook.

Two ways to start one, the same fence around both:
- cold: ``python -m autograder.grading.sandbox ... -- python -m ipykernel_launcher ...``;
- warm: a ``KernelFactory`` (one per batch, shared by its local workers; a Dask worker starts its
  own) keeps a zygote that has imported torch and the course already, and forks each kernel from
  it (``warm_kernels.py``).
"""
import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from queue import Empty

import course
import zmq.asyncio
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.manager import AsyncKernelManager
from traitlets import Dict, Type, Unicode

import autograder

from . import warm_kernel_client
from .sandbox import probe

NOBODY = 65534
SANDBOX, WARM_KERNELS = True, True  # TrustedExecute's defaults, which ``start_zygote`` reads too
_probed: dict = {}


def repository_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(autograder.__file__)))


def kept_paths(extra=()) -> list[str]:
    """All a kernel sees besides the system's folders: Python and its packages, the student package,
    and the folders named. Everything else on the machine is absent from its root (sandbox.py)."""
    return [sys.prefix, sys.base_prefix, os.path.dirname(os.path.abspath(course.__file__)), *extra]


def _fence_arguments(keep, namespaces: bool) -> list[str]:
    arguments = [] if namespaces else ["--no-namespaces"]
    for path in keep:
        arguments += ["--keep", path]
    return arguments


def sandbox_refusal() -> str | None:
    """Asked once per process: why kernels cannot be fenced in here (None: they can)."""
    if "why" not in _probed:
        _probed["why"] = probe()
    return _probed["why"]


def fence_refusal(sandbox: bool) -> str | None:
    """Why kernels run without namespaces with this ``sandbox`` setting (None: they are fenced in)."""
    return sandbox_refusal() if sandbox else "sandboxing is switched off (TrustedExecute.sandbox)"


def start_zygote(config) -> "KernelFactory | None":
    """The warm parent the configured kernels fork from, launched now (None: they start cold).

    It reads TrustedExecute's two settings from the configuration itself, so the grade command can
    launch it before importing torch and the grader: the zygote's imports then overlap all of those.
    """
    settings = config.TrustedExecute
    if not settings.get("warm_kernels", WARM_KERNELS):
        return None
    return KernelFactory.start(namespaces=not fence_refusal(settings.get("sandbox", SANDBOX)))


class KernelFactory:
    """A zygote, and the folder its kernels' files live in.

    The grade command starts one before its workers (``start``) and hands it to each of them
    (``handle``, ``adopt``): its imports then overlap the workers' own, and are paid once per batch,
    not once per worker. A process that was handed none (a Dask worker) starts its own on first use
    (``shared``), and so does one whose zygote has died.
    """

    _shared = None

    def __init__(self, namespaces: bool, area: str, pid: int, process: subprocess.Popen | None = None):
        self.namespaces, self.area, self.pid, self.process = namespaces, area, pid, process
        self.socket = os.path.join(area, "zygote.sock")

    @classmethod
    def start(cls, namespaces: bool) -> "KernelFactory":
        """Launch a zygote and return at once; it is waited for when a kernel is first asked of it."""
        area = tempfile.mkdtemp(prefix="autograd-warm-")
        os.chmod(area, 0o755)
        command = [sys.executable, "-m", "autograder.grading.sandbox", "--zygote", os.path.join(area, "zygote.sock"),
                   "--owner", str(os.getpid()), *_fence_arguments(kept_paths([area]), namespaces)]
        with open(os.path.join(area, "zygote.log"), "w") as log:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                       start_new_session=True)
        factory = cls(namespaces, area, process.pid, process)
        atexit.register(factory.close)
        return factory

    def handle(self) -> dict:
        """What another process on this machine needs to ``adopt`` this zygote."""
        return {"namespaces": self.namespaces, "area": self.area, "pid": self.pid}

    @classmethod
    def adopt(cls, handle: dict) -> None:
        """Use the zygote another process started as this process's own."""
        cls._shared = cls(**handle)

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        try:  # another process's child: alive unless gone or a zombie
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False

    def wait_ready(self, seconds: float = 180) -> None:
        deadline = time.monotonic() + seconds
        while not os.path.exists(self.socket):
            if not self.alive() or time.monotonic() > deadline:
                why = self._log_tail()
                self.close()
                raise RuntimeError(f"the warm-kernel zygote did not start: {why}")
            time.sleep(0.02)

    def _log_tail(self) -> str:
        try:
            with open(os.path.join(self.area, "zygote.log")) as handle:
                return handle.read()[-2000:]
        except OSError:
            return "(no log)"

    @classmethod
    def shared(cls, namespaces: bool) -> "KernelFactory":
        """This process's zygote, ready: the one it adopted, else its own, started on first use."""
        if cls._shared is not None and (not cls._shared.alive() or cls._shared.namespaces != namespaces):
            cls._shared.close()
            cls._shared = None
        if cls._shared is None:
            cls._shared = cls.start(namespaces)
        cls._shared.wait_ready()
        return cls._shared

    def scratch(self, prefix: str) -> str:
        """A folder the zygote's kernels can see (everything else of the host's /tmp is hidden)."""
        return tempfile.mkdtemp(prefix=prefix, dir=self.area)

    def command(self, arguments: list[str], cwd: str, writable: list[str], limits: dict) -> list[str]:
        request = {"arguments": arguments, "cwd": cwd, "writable": writable, "uid": NOBODY, "gid": NOBODY,
                   "memory": limits.get("memory"), "max_file": limits.get("max_file"),
                   "max_processes": limits.get("max_processes")}
        return [sys.executable, "-I", "-S", warm_kernel_client.__file__, self.socket, json.dumps(request)]

    def close(self) -> None:
        """Stop the zygote and remove its folder, if this process started it."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.area, ignore_errors=True)


class GradingKernelClient(AsyncKernelClient):
    """jupyter_client's client, ready as soon as the kernel has answered on both channels.

    jupyter_client's own ``wait_for_ready`` ends by waiting 0.2 s for IOPub to fall silent, on every
    kernel start. nbclient ignores IOPub messages that answer other requests, so a grading kernel
    needs no such flush: the wait was a fifth of a second of idle core per notebook.

    Its sockets also retry their connection every 10 ms rather than ZeroMQ's 100 ms: they connect
    before the newly forked kernel has bound its sockets, and would otherwise idle until the next try.
    """

    def _context_default(self) -> zmq.asyncio.Context:
        self._created_context = True
        context = zmq.asyncio.Context()
        context.setsockopt(zmq.RECONNECT_IVL, 10)
        return context

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            self.kernel_info()
            try:
                reply = await self.shell_channel.get_msg(timeout=1)
            except Empty:
                reply = None
            if reply is not None and reply["msg_type"] == "kernel_info_reply":
                try:  # IOPub is connected once the kernel's status for this request reaches it
                    await self.iopub_channel.get_msg(timeout=0.2)
                except Empty:
                    pass
                else:
                    self._handle_kernel_info_reply(reply)
                    return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")

    _async_wait_for_ready = wait_for_ready


class SandboxedKernelManager(AsyncKernelManager):
    client_factory = Type(klass=GradingKernelClient)
    sandbox_options = Dict(help="How to fence the kernel in: see autograder.grading.sandbox.").tag(config=True)
    socket_dir = Unicode("", help="Folder for this kernel's connection file and sockets.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.scratch_dirs: list[str] = []
        factory = self.sandbox_options.get("factory")
        self.socket_dir = factory.scratch("kernel-") if factory else tempfile.mkdtemp(prefix="autograd-kernel-")
        os.chmod(self.socket_dir, 0o755)
        self.transport = "ipc"
        self.ip = os.path.join(self.socket_dir, "kernel")
        self.connection_file = os.path.join(self.socket_dir, "kernel.json")

    def format_kernel_cmd(self, extra_arguments=None):
        command = super().format_kernel_cmd(extra_arguments)
        options = self.sandbox_options
        cwd = options.get("cwd")
        writable = [self.socket_dir] + ([cwd] if cwd else [])
        factory = options.get("factory")
        if factory is not None:
            launcher = command.index("ipykernel_launcher") if "ipykernel_launcher" in command else None
            if launcher is not None:
                return factory.command(command[launcher + 1:], cwd or self.socket_dir, writable, options)
        wrapper = [sys.executable, "-m", "autograder.grading.sandbox",
                   *_fence_arguments(kept_paths(writable), not options.get("no_namespaces"))]
        for path in writable:
            wrapper += ["--writable", path]
        for flag in ("memory", "max_file", "max_processes"):
            if options.get(flag):
                wrapper += [f"--{flag.replace('_', '-')}", str(options[flag])]
        return wrapper + ["--", *command]

    async def _async_wait(self, pollinterval: float = 0.01) -> None:
        """A killed kernel is gone within milliseconds: look every 10 ms, not jupyter_client's 100."""
        await super()._async_wait(pollinterval)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            for folder in [self.socket_dir, *self.scratch_dirs]:
                shutil.rmtree(folder, ignore_errors=True)
