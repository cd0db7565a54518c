"""Grade many submissions at once: workers execute, one recorder writes, progress is shown.

The fan-out takes any ``concurrent.futures.Executor``: local worker processes by default, or a Dask
cluster's executor to go past one machine (workers must see the course directory at the same path).
A batch that is stopped keeps everything recorded so far; started again, it grades only the rest.
"""
import concurrent.futures as futures
import os
import select
import threading
import time

from concurrent.futures.process import BrokenProcessPool

from .kernel_manager import KernelFactory
from .progress import BatchReport, Progress
from .recording import Recorder
from .warm_start import worker_context
from .worker import execute_submission


BrokenExecutor = (BrokenProcessPool, futures.BrokenExecutor)


def local_executor(workers: int, zygote: KernelFactory | None = None) -> futures.Executor:
    """Worker processes on this machine; with ``zygote``, all of them fork their kernels from it."""
    return futures.ProcessPoolExecutor(max_workers=workers, mp_context=worker_context(), initializer=_start_worker,
                                       initargs=(zygote.handle() if zygote else None, os.getpid()))


def _start_worker(zygote: dict | None, command: int) -> None:
    """A local worker adopts the batch's zygote, and ends when the command does, however it ends.

    Killed outright, the command runs no clean-up, and a worker blocked sending it a result would
    otherwise wait forever (and keep the fork server alive with it). Its kernel goes with it: the
    zygote's supervisor kills a kernel whose client is gone.
    """
    if zygote:
        KernelFactory.adopt(zygote)
    try:
        command_gone = os.pidfd_open(command)
    except ProcessLookupError:
        os._exit(1)

    def end_with_the_command():
        select.select([command_gone], [], [])
        os._exit(1)
    threading.Thread(target=end_with_the_command, daemon=True).start()


def grade_batch(course, jobs, new_executor, progress: Progress | None = None) -> BatchReport:
    """Grade ``jobs`` on executors made by ``new_executor()``; results are recorded as they come.

    A worker process that dies breaks a local pool; then a new pool takes the jobs left, and the
    ones that were running when it broke are tried once more before they count as failed.
    """
    report, started = BatchReport(), time.monotonic()
    recorder = Recorder(course)
    progress = progress or Progress(len(jobs), quiet=True)
    left, tries = list(jobs), {job: 0 for job in jobs}
    try:
        while left:
            with new_executor() as executor:
                left = _run(course, left, tries, executor, recorder, report, progress)
    finally:
        report.seconds = time.monotonic() - started
        progress.close()
    return report


def _run(course, jobs, tries, executor, recorder, report, progress) -> list:
    """Run ``jobs`` on one executor; the jobs to run again if it broke."""
    pending = {executor.submit(execute_submission, course.root, lesson, student): (lesson, student)
               for lesson, student in jobs}
    try:
        for future in futures.as_completed(pending):
            job = pending.pop(future)
            try:
                executed = future.result()
            except BrokenExecutor:
                tries[job] += 1
                if tries[job] < 2:
                    return [job] + [j for j in pending.values()]
                why = "the worker grading it died twice (out of memory, or killed)"
            except Exception as error:
                why = f"{type(error).__name__}: {error}"
            else:
                report.worker_seconds += executed.seconds
                why = recorder.record(executed)
            if why:
                report.failed[job] = why
            else:
                report.graded.append(job)
            progress.done(*job, why)
    finally:
        for future in pending:
            future.cancel()
    return []


class _DaskExecutor:
    """A Dask client's executor that closes its client with it."""

    def __init__(self, scheduler: str):
        from distributed import Client
        self.client = Client(scheduler)
        self.executor = self.client.get_executor(pure=False)

    def submit(self, *args, **kwargs):
        return self.executor.submit(*args, **kwargs)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.client.close()


def dask_executor(scheduler: str):
    return _DaskExecutor(scheduler)
