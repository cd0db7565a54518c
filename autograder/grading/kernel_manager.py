"""A kernel manager whose kernels start inside the sandbox and talk over IPC sockets.

IPC (Unix sockets in a private folder) instead of TCP: the sandboxed kernel has no network to
listen on, the sockets are readable only through that folder, and the "running over TCP without
encryption" warning no longer shows once per notebook.
"""
import os
import sys
import tempfile

import course
from jupyter_client.manager import AsyncKernelManager
from traitlets import Dict, Unicode

import autograder


def repository_root() -> str:
    return os.path.dirname(os.path.dirname(os.path.abspath(autograder.__file__)))


class SandboxedKernelManager(AsyncKernelManager):
    sandbox_options = Dict(help="How to fence the kernel in: see autograder.grading.sandbox.").tag(config=True)
    socket_dir = Unicode("", help="Folder for this kernel's connection file and sockets.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.socket_dir = tempfile.mkdtemp(prefix="autograd-kernel-")
        os.chmod(self.socket_dir, 0o755)
        self.transport = "ipc"
        self.ip = os.path.join(self.socket_dir, "kernel")
        self.connection_file = os.path.join(self.socket_dir, "kernel.json")

    def format_kernel_cmd(self, extra_arguments=None):
        command = super().format_kernel_cmd(extra_arguments)
        options = self.sandbox_options
        if options.get("off"):
            return command
        wrapper = [sys.executable, "-m", "autograder.grading.sandbox"]
        if options.get("no_namespaces"):
            wrapper.append("--no-namespaces")
        for path in self._hidden():
            wrapper += ["--hide", path]
        for path in self._kept():
            wrapper += ["--keep", path]
        cwd = options.get("cwd")
        for path in [self.socket_dir] + ([cwd] if cwd else []):
            wrapper += ["--writable", path]
        for flag in ("memory", "max_file", "max_processes"):
            if options.get(flag):
                wrapper += [f"--{flag.replace('_', '-')}", str(options[flag])]
        return wrapper + ["--", *command]

    def _hidden(self) -> list[str]:
        """What a submission must not read: the course, the grader, other students, home folders."""
        hidden = [repository_root(), "/tmp", "/root", "/home", "/var/tmp", "/run/user"]
        hidden += self.sandbox_options.get("hide", [])
        return [path for path in hidden if os.path.exists(path)]

    def _kept(self) -> list[str]:
        """What it needs: Python and its packages, the student package, its sockets, its own folder."""
        kept = [sys.prefix, sys.base_prefix, os.path.dirname(os.path.abspath(course.__file__)), self.socket_dir]
        cwd = self.sandbox_options.get("cwd")
        return kept + ([cwd] if cwd else [])

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            import shutil
            shutil.rmtree(self.socket_dir, ignore_errors=True)
