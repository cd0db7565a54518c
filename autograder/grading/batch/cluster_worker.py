"""A Dask worker that is warm before its first task: its warm parents start when it starts.

    dask worker tcp://SCHEDULER:8786 --nthreads 1 --nworkers 2 --preload autograder.grading.batch.cluster_worker

Started so (or when a grade command connects: it registers the same plugin, carrying the course's
kernel settings), a worker imports what grading needs once (``warm_workers``: nbgrader, nbclient,
torch, every lesson's reference) and launches the zygote its kernels fork from, fenced as local
grading fences them (namespaces where the OS allows: root, or unprivileged user namespaces).
Without it, the worker's first task would pay both, several seconds on every worker while the
batch has barely begun.
"""
import hashlib
import json

from distributed.diagnostics.plugin import WorkerPlugin

from ..kernels.settings import GradingKernels
from .tasks import keep_gradebooks_in

_started: dict = {}
PLUGIN = "autograd-course-warm-grading"


class WarmGrading(WorkerPlugin):
    """distributed's own hook: ``setup`` runs on each worker when it starts or joins.

    Its name holds a digest of its settings: registered again with the same ones (every grade
    command of the course), it is set up once per worker; with another course's limits it is a new
    plugin, and the worker's zygote is started again with them before the first task needs it.
    """

    idempotent = True

    def __init__(self, settings: dict | None = None):
        """``settings``: ``GradingKernels.values()`` of the course (None: the defaults)."""
        self.settings = dict(settings or GradingKernels().values())
        digest = hashlib.sha256(json.dumps(self.settings, sort_keys=True).encode()).hexdigest()[:12]
        self.name = f"{PLUGIN}-{digest}"

    def setup(self, worker=None) -> None:
        if worker is not None:  # removed by Dask when the worker closes, or purged by the next one if it died
            keep_gradebooks_in(worker.local_directory)
        if _started.get("name") == self.name:
            return
        from traitlets.config import Config

        from ..kernels.factory import KernelFactory
        from ..kernels.settings import start_zygote
        earlier = _started.pop("zygote", None)
        zygote = start_zygote(Config({"GradingKernels": self.settings}))
        if zygote is not None:
            KernelFactory.adopt(zygote.handle())
        if earlier is not None and earlier is not zygote:
            earlier.close()  # the default fence's zygote of a preloaded worker, superseded
        from . import warm_workers  # noqa: F401  (imports while the zygote starts)
        _started.update(name=self.name, zygote=zygote)


def dask_setup(worker) -> None:
    """``dask worker --preload autograder.grading.batch.cluster_worker`` calls this as the worker starts."""
    WarmGrading().setup(worker)
