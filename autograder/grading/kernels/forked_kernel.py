"""A kernel the zygote forked, followed by the worker that asked for it as jupyter_client follows a process.

The worker connects to the zygote's socket and sends its request (the kernel's arguments, the
fence, the box); the supervisor the zygote forks answers with the kernel's pid, and later with its
exit code. Signals go to the kernel through a pidfd, so never to a pid the system has given to
another process since. The connection is the kernel's lifeline: if it closes (the worker is gone,
however it ended), the supervisor kills the kernel. No process stands in between: asking in the
worker itself spares a Python interpreter's start for every kernel.
"""
import contextlib
import json
import os
import select
import signal
import socket


class ForkedKernel:
    """What ``LocalProvisioner`` expects of its process: ``pid``, ``poll``, ``wait``, ``send_signal``,
    ``kill``, ``terminate``, and no pipes."""

    stdin = stdout = stderr = None

    def __init__(self, socket_path: str, request: dict, within: float):
        self.returncode = None
        self._buffer = b""
        self._connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            self._connection.connect(socket_path)
            self._connection.sendall((json.dumps(request) + "\n").encode())
            reply = self._line(block=True, timeout=within)
            if reply is None:
                raise RuntimeError(f"the warm-kernel zygote started no kernel within {within:g} s")
            if not reply:  # its supervisor ended first: it could not put the kernel in a box
                raise RuntimeError("the warm-kernel zygote could not start a kernel in its box")
            self.pid = int(json.loads(reply)["pid"])
            self._pidfd = os.pidfd_open(self.pid)
        except BaseException:
            self._connection.close()
            raise

    def _line(self, block: bool, timeout: float | None = None) -> str | None:
        """The supervisor's next line ("" once it has closed the connection; None: none yet)."""
        while b"\n" not in self._buffer:
            if not block or timeout is not None:
                if not select.select([self._connection], [], [], 0 if not block else timeout)[0]:
                    return None
            chunk = self._connection.recv(4096)
            if not chunk:
                return ""
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode()

    def _ended(self, line: str) -> int:
        self.returncode = int(json.loads(line)["exit"]) if line else 1  # a supervisor gone: its kernel is too
        self._connection.close()
        os.close(self._pidfd)
        return self.returncode

    def poll(self) -> int | None:
        if self.returncode is None:
            line = self._line(block=False)
            if line is not None:
                return self._ended(line)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int | None:
        if self.returncode is None:
            line = self._line(block=True, timeout=timeout)
            if line is not None:
                return self._ended(line)
        return self.returncode

    def send_signal(self, signum: int) -> None:
        """As ``Popen.send_signal``: nothing happens to a kernel that has ended."""
        if self.poll() is None:
            with contextlib.suppress(ProcessLookupError):  # ended, its end not yet reported
                signal.pidfd_send_signal(self._pidfd, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def close(self) -> None:
        """Let go of the kernel: the supervisor kills it if it still runs."""
        if self.returncode is None:
            self._ended("")
