"""A Dask worker that is warm before its first task: its warm parents start when it starts.

    dask worker tcp://SCHEDULER:8786 --nthreads 1 --nworkers 2 --preload autograder.grading.cluster_worker

Started so (or when a grade command connects: it registers the same plugin), a worker imports what
grading needs once (``warm_workers``: nbgrader, nbclient, torch, every lesson's reference) and
launches the zygote its kernels fork from, fenced as local grading fences them (namespaces where
the OS allows: root, or unprivileged user namespaces). Without it, the worker's first task would
pay both, several seconds on every worker while the batch has barely begun.
"""
from distributed.diagnostics.plugin import WorkerPlugin

_started: dict = {}


class WarmGrading(WorkerPlugin):
    """distributed's own hook: ``setup`` runs on each worker when it starts or joins."""

    name = "autograd-course-warm-grading"
    idempotent = True  # registered by the preload and by every grade command: one set-up per worker

    def setup(self, worker=None) -> None:
        if _started:
            return
        from traitlets.config import Config

        from .kernel_manager import KernelFactory, start_zygote
        zygote = start_zygote(Config())  # TrustedExecute's defaults: warm, fenced where the OS allows it
        if zygote is not None:
            KernelFactory.adopt(zygote.handle())
        from . import warm_workers  # noqa: F401  (imports while the zygote starts)
        _started["zygote"] = zygote


def dask_setup(worker) -> None:
    """``dask worker --preload autograder.grading.cluster_worker`` calls this as the worker starts."""
    WarmGrading().setup(worker)
