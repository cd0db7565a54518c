"""A grading kernel's two ways to start, cold and warm, as jupyter_client provisioners.

jupyter_client starts every kernel through a provisioner: ``pre_launch`` prepares the command,
``launch_kernel`` runs it, ``poll``, ``send_signal``, ``kill`` and ``terminate`` follow it and
``cleanup`` undoes what ``pre_launch`` made. Both starts here follow the kernel as
``LocalProvisioner`` follows its local process: a cold kernel is that process, started by the
command that puts it in its box (``cold.py``); a warm one is forked by the zygote, asked for by
this process itself (``forked_kernel.py``), its exit read from the zygote and its signals sent
through a pidfd. A box's control group belongs to its kernel's run: made afresh in ``pre_launch`` (a
restarted kernel starts with clean counters, and nothing of the run before it is left in the
group) and removed in ``cleanup``, which also kills anything of the kernel still in it.

The manager sets its provisioner itself (``SandboxedKernelManager._async_pre_start_kernel``);
jupyter_client looks one up by entry point only when none is set. That is the simpler and the
more robust way here: a provisioner needs live values (the fence, the zygote, the manager's box)
that the JSON config of a kernel spec cannot carry; an entry point is found in installed package
metadata, which an environment that imports the grader from a checkout or an older install does
not have (a Dask worker's, a test's); and no kernel spec needs to name a grading provisioner, so
nbgrader's ``OverwriteKernelspec`` and every other Jupyter on the machine are unaffected.
"""
import pathlib
import sys
from typing import Any

from jupyter_client.provisioning import LocalProvisioner
from traitlets import Instance

from . import cgroups, cold
from .fence import Box, Fence


class BoxedProvisioner(LocalProvisioner):
    """A kernel started in its manager's box, counted in a control group of its own."""

    fence = Instance(Fence, help="The fence its kernel gets.")

    @property
    def box(self) -> Box:
        return self.parent.box

    async def pre_launch(self, **kwargs: Any) -> dict[str, Any]:
        box = self.box
        if box.cgroups:
            cgroups.create(self.fence.cgroups, box.cgroups, self.fence.memory, self.fence.max_processes,
                           self.fence.cpu)
        self._seen = {"memory": 0, "processes": 0}
        kwargs = await super().pre_launch(**kwargs)
        kwargs["cmd"] = self.boxed(kwargs["cmd"], box)
        return kwargs

    def boxed(self, command: list[str], box: Box) -> list[str]:
        """What starts the kernel ``command`` in ``box``."""
        raise NotImplementedError

    def breaches(self) -> list[str]:
        """The caps this kernel (with its children) hit since last asked, as reasons."""
        now = cgroups.breaches(self.box.cgroups)
        seen = getattr(self, "_seen", {"memory": 0, "processes": 0})
        self._seen = now
        return [what for what in ("memory", "processes") if now[what] > seen[what]]

    def peak_memory(self) -> int:
        """The most memory this kernel (with its children) has held since it started."""
        return cgroups.peak_memory(self.box.cgroups)

    async def cleanup(self, restart: bool = False) -> None:
        await super().cleanup(restart=restart)
        cgroups.remove(self.box.cgroups)


class ColdProvisioner(BoxedProvisioner):
    """A kernel started afresh: ``python -m autograder.grading.kernels.cold`` enters the box, then
    execs the kernel's own command."""

    def boxed(self, command: list[str], box: Box) -> list[str]:
        return [sys.executable, "-m", cold.__name__, self.fence.to_json(), box.to_json(), "--", *command]


class WarmProvisioner(BoxedProvisioner):
    """A kernel forked from the zygote, which puts it in its box: the command only carries its arguments."""

    factory = Instance("autograder.grading.kernels.factory.KernelFactory", help="The zygote to fork from.")

    def boxed(self, command: list[str], box: Box) -> list[str]:
        return command

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> dict[str, Any]:
        self.process = self.factory.fork(cmd[cmd.index("ipykernel_launcher") + 1:], self.box)
        self.pid, self.pgid, self.cwd = self.process.pid, None, kwargs.get("cwd", pathlib.Path.cwd())
        return self.connection_info

    async def cleanup(self, restart: bool = False) -> None:
        if self.process is not None:  # never waited for: let it go (its supervisor then kills it)
            self.process.close()
            self.process = None
        await super().cleanup(restart=restart)


def forks_warm(argv: list[str]) -> bool:
    """Whether a kernel spec's command is one the zygote can fork (an IPython kernel): any other
    kernel starts cold."""
    return "ipykernel_launcher" in argv
