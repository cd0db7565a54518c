"""What ``autograd-course grade`` runs, and ``prove`` and the tests with it: one grading path.

``start`` decides where the batch grades and what boxes its kernels, and says so: on this machine
(its warm parents launched at once, before nbgrader is imported, so their imports overlap the rest
of the start), on a Dask cluster, or through the grading service when this account cannot box a
kernel itself (the class hub's instructor is not root). Where no kernel can be boxed it refuses
(``Unboxed``), unless the instructor has said by name to grade without the box. Then ``run`` grades
the batch there.
"""
import functools
from dataclasses import dataclass

from ..kernels.settings import GradingKernels, Unboxed  # noqa: F401  (Unboxed: what start raises)
from .settings import GradingBatch, default_workers

ON_DASK = ("kernels are boxed on each Dask worker as its machine allows; a worker that cannot box them "
           "refuses to grade unless c.GradingKernels.allow_unboxed is set")


@dataclass(frozen=True)
class Started:
    scheduler: str  # a Dask scheduler's address, or "" for local workers
    zygote: object  # the local kernels' KernelFactory (None: on a cluster or the service, or kernels start cold)
    service: str = ""  # the grading service's socket, when it grades
    box: str = ""  # what holds each kernel, as said when grading starts

    @property
    def where(self) -> str:
        if self.scheduler:
            return f"the Dask cluster at {self.scheduler}"
        return f"the grading service at {self.service}" if self.service else "this machine"


def start(course, scheduler: str = "") -> Started:
    """Where the batch will run and what boxes its kernels; on this machine, its warm parents launched now.

    Raises ``Unboxed`` where kernels cannot be boxed and the course does not allow grading without the
    box, and ``service_executor.ServiceRefused`` where the grading service will not grade for this account.
    """
    settings = GradingBatch(config=course.config)
    scheduler = scheduler or settings.scheduler
    if scheduler:
        return Started(scheduler, None, box=ON_DASK)
    kernels = GradingKernels.of(course.config)
    if not kernels.fence().namespaces and settings.service:
        from .service_executor import greeting
        return Started("", None, settings.service, greeting(settings.service)["box"])
    fence = kernels.boxed_fence()
    from .warm_start import start_warm_parents
    return Started("", start_warm_parents(course.config), box=fence.statement())


def run(course, jobs, workers: int = 0, scheduler: str = "", progress=None, started: Started | None = None):
    """Grade ``jobs`` ((lesson, student) pairs) of ``course``; the ``BatchReport``."""
    settings = GradingBatch(config=course.config)
    started = started or start(course, scheduler)
    from . import fan_out
    if started.scheduler:
        new_executor = functools.partial(fan_out.dask_executor, started.scheduler, course.config)
    elif started.service:
        from .service_executor import ServiceExecutor
        new_executor = functools.partial(ServiceExecutor, started.service)
    else:
        new_executor = functools.partial(fan_out.local_executor, workers or settings.workers or default_workers(),
                                         started.zygote)
    return fan_out.grade_batch(course, jobs, new_executor, progress, settings)
