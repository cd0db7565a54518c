"""What ``autograd-course grade`` runs, and ``prove`` and the tests with it: one grading path.

The local warm parents start first, before nbgrader is imported, so their imports overlap the
rest of the start; then the batch runs on local workers or on a Dask cluster's.
"""
import functools

from .settings import GradingBatch, default_workers


def run(course, jobs, workers: int = 0, scheduler: str = "", progress=None):
    """Grade ``jobs`` ((lesson, student) pairs) of ``course``; the ``BatchReport``."""
    settings = GradingBatch(config=course.config)
    scheduler = scheduler or settings.scheduler
    zygote = None
    if not scheduler:
        from .warm_start import start_warm_parents
        zygote = start_warm_parents(course.config)
    from . import fan_out
    new_executor = functools.partial(fan_out.dask_executor, scheduler, course.config) if scheduler else \
        functools.partial(fan_out.local_executor, workers or settings.workers or default_workers(), zygote)
    return fan_out.grade_batch(course, jobs, new_executor, progress, settings)
