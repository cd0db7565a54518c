"""The zygote of a batch, and the folder its kernels' files live in.

The grade command starts one before its workers (``start``) and hands it to each of them
(``handle``, ``adopt``): its imports then overlap the workers' own, and are paid once per batch,
not once per worker. A process that was handed none (a Dask worker) starts its own on first use
(``shared``), and so does one whose zygote has died or was started with another fence.
"""
import atexit
import os
import shutil
import subprocess
import sys
import tempfile
import time

from .fence import KERNEL_ENVIRONMENT, Fence
from .forked_kernel import ForkedKernel


class KernelFactory:
    _shared = None

    def __init__(self, fence: Fence, area: str, pid: int, ready_within: float, process: subprocess.Popen | None = None):
        self.fence, self.area, self.pid, self.process = fence, area, pid, process
        self.ready_within = ready_within  # seconds it may take to start serving (GradingKernels.zygote_timeout)
        self.socket = os.path.join(area, "zygote.sock")

    @property
    def namespaces(self) -> bool:
        return self.fence.namespaces

    @classmethod
    def start(cls, fence: Fence, ready_within: float) -> "KernelFactory":
        """Launch a zygote and return at once; it is waited for when a kernel is first asked of it.

        It starts with the fence's environment already (what a forked kernel's /proc/self/environ
        shows is the zygote's), plus what finds this package if the grader was told where it is.
        """
        area = tempfile.mkdtemp(prefix="autograd-warm-")
        os.chmod(area, 0o700)
        command = [sys.executable, "-m", f"{__package__}.zygote", os.path.join(area, "zygote.sock"),
                   fence.to_json(), str(os.getpid())]
        env = {k: v for k, v in os.environ.items() if k in fence.environment or k == "PYTHONPATH"}
        env.update(KERNEL_ENVIRONMENT)
        with open(os.path.join(area, "zygote.log"), "w") as log:
            process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                       start_new_session=True, env=env)
        factory = cls(fence, area, process.pid, ready_within, process)
        atexit.register(factory.close)
        return factory

    def handle(self) -> dict:
        """What another process on this machine needs to ``adopt`` this zygote."""
        return {"fence": self.fence.to_json(), "area": self.area, "pid": self.pid, "ready_within": self.ready_within}

    @classmethod
    def adopt(cls, handle: dict) -> None:
        """Use the zygote another process started as this process's own."""
        fence = handle["fence"]
        cls._shared = cls(Fence.from_json(fence) if isinstance(fence, str) else fence, handle["area"], handle["pid"],
                          handle["ready_within"])

    def alive(self) -> bool:
        if self.process is not None:
            return self.process.poll() is None
        try:  # another process's child: alive unless gone or a zombie
            with open(f"/proc/{self.pid}/stat") as stat:
                return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False

    def wait_ready(self) -> None:
        deadline = time.monotonic() + self.ready_within
        while not os.path.exists(self.socket):
            if not self.alive() or time.monotonic() > deadline:
                late = f"not serving within {self.ready_within:g} s (GradingKernels.zygote_timeout); " \
                    if self.alive() else ""
                why = late + self._log_tail()
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
    def shared(cls, fence: Fence, ready_within: float) -> "KernelFactory":
        """This process's zygote, ready: the one it adopted, else its own, started on first use."""
        if cls._shared is not None and (not cls._shared.alive() or cls._shared.fence != fence):
            cls._shared.close()
            cls._shared = None
        if cls._shared is None:
            cls._shared = cls.start(fence, ready_within)
        cls._shared.wait_ready()
        return cls._shared

    def scratch(self, prefix: str) -> str:
        """A folder the zygote can see (everything else of the host's /tmp is hidden from it)."""
        return tempfile.mkdtemp(prefix=prefix, dir=self.area)

    def request(self, arguments: list[str], box) -> dict:
        """What the zygote is asked for a kernel: its arguments, in ``box``, behind this fence."""
        return {"arguments": arguments, "fence": self.fence.to_json(), "box": box.to_json()}

    def fork(self, arguments: list[str], box) -> ForkedKernel:
        """A kernel forked for this process, in ``box``, started with ``arguments``."""
        return ForkedKernel(self.socket, self.request(arguments, box), within=self.ready_within)

    def close(self) -> None:
        """Stop the zygote and remove its folder, if this process started it."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        shutil.rmtree(self.area, ignore_errors=True)
