"""What ``autograd-course grade`` runs, and ``prove`` and the tests with it: one grading path.

The local warm parents start first (``start``), before nbgrader is imported, so their imports
overlap the rest of the start; a command that has more to do before grading (the grade command
reads the hand grades to keep) starts them as soon as it knows it will grade. Then the batch runs
on local workers or on a Dask cluster's.
"""
import functools
from dataclasses import dataclass

from .settings import GradingBatch, default_workers


@dataclass(frozen=True)
class Started:
    scheduler: str  # a Dask scheduler's address, or "" for local workers
    zygote: object  # the local kernels' KernelFactory (None: on a cluster, or kernels start cold)


def start(course, scheduler: str = "") -> Started:
    """Where the batch will run; on this machine, its warm parents launched now."""
    scheduler = scheduler or GradingBatch(config=course.config).scheduler
    if scheduler:
        return Started(scheduler, None)
    from .warm_start import start_warm_parents
    return Started("", start_warm_parents(course.config))


def run(course, jobs, workers: int = 0, scheduler: str = "", progress=None, started: Started | None = None):
    """Grade ``jobs`` ((lesson, student) pairs) of ``course``; the ``BatchReport``."""
    settings = GradingBatch(config=course.config)
    started = started or start(course, scheduler)
    from . import fan_out
    new_executor = functools.partial(fan_out.dask_executor, started.scheduler, course.config) if started.scheduler \
        else functools.partial(fan_out.local_executor, workers or settings.workers or default_workers(), started.zygote)
    return fan_out.grade_batch(course, jobs, new_executor, progress, settings)
