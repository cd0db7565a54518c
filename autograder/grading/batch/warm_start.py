"""The two warm parents of a local batch, started before anything else the grade command does.

- the kernels' zygote (``kernels.settings.start_zygote``, ``kernels/zygote.py``);
- the workers' fork server: multiprocessing's ``forkserver``, preloaded with ``warm_workers``.

Each imports torch and the rest once per batch. Started first, from a command that has not yet
imported nbgrader, their imports overlap the command's own instead of following them.
"""
import multiprocessing
import multiprocessing.forkserver

from ..kernels.factory import KernelFactory
from ..kernels.settings import start_zygote


def worker_context(start: bool = False):
    """How local workers start: forked from the server, which the command's own process is not fit
    to be (it has threads: the gradebook's, nbgrader's logging). With ``start``, it starts now."""
    context = multiprocessing.get_context("forkserver")
    # never imported here (no torch here, and no exit without teardown)
    context.set_forkserver_preload([f"{__package__}.warm_workers", f"{__package__}.fork_server_exit"])
    if start:
        multiprocessing.forkserver.ensure_running()
    return context


def start_warm_parents(config) -> KernelFactory | None:
    """Launch both; the zygote is returned (None: the configuration starts kernels cold)."""
    zygote = start_zygote(config)
    worker_context(start=True)
    return zygote
