"""Grade many submissions at once: workers execute tasks, one recorder writes, progress is shown.

The fan-out takes any ``concurrent.futures.Executor``: local worker processes by default, or a Dask
cluster's executor to go past one machine. Tasks carry what they need (``tasks.py``), so a cluster's
workers need the instructor package and nothing of the course. A batch that is stopped keeps
everything recorded so far; started again, it grades only the rest.
"""
import concurrent.futures as futures
import os
import select
import shutil
import tempfile
import threading
import time

from concurrent.futures.process import BrokenProcessPool

from ..kernels.factory import KernelFactory
from .settings import GradingBatch
from .grading_progress import BatchReport, Progress
from .recording import Recorder
from .tasks import AssignmentRows, SubmissionTooLarge, Task, keep_gradebooks_in, make_task
from .warm_start import worker_context
from .worker import grade_task


BrokenExecutor = (BrokenProcessPool, futures.BrokenExecutor)


class _LocalPool(futures.ProcessPoolExecutor):
    """Local workers, and their scratch folder: the drawings they share (``judging/pictures.py``) and
    their private gradebooks (``tasks.private_gradebook``). Private to the grader (kernels never see
    the host's /tmp), removed with the pool."""

    def __init__(self, workers: int, zygote: KernelFactory | None):
        self.slots, self.scratch = workers, tempfile.mkdtemp(prefix="autograd-workers-")  # mode 0700
        super().__init__(max_workers=workers, mp_context=worker_context(), initializer=_start_worker,
                         initargs=(zygote.handle() if zygote else None, os.getpid(), self.scratch))

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=wait, cancel_futures=cancel_futures)
        shutil.rmtree(self.scratch, ignore_errors=True)


def local_executor(workers: int, zygote: KernelFactory | None = None) -> futures.Executor:
    """Worker processes on this machine; with ``zygote``, all of them fork their kernels from it."""
    return _LocalPool(workers, zygote)


def _start_worker(zygote: dict | None, command: int, scratch: str) -> None:
    """A local worker adopts the batch's zygote and its pool's scratch folder, and ends when the
    command does, however it ends.

    Killed outright, the command runs no clean-up, and a worker blocked sending it a result would
    otherwise wait forever (and keep the fork server alive with it). Its kernel goes with it: the
    zygote's supervisor kills a kernel whose client is gone. The pool's scratch folder goes too: the
    command that would have removed it is gone.
    """
    if zygote:
        KernelFactory.adopt(zygote)
    from ..judging import pictures  # imported already by the fork server
    pictures.share(scratch)
    keep_gradebooks_in(scratch)
    try:
        command_gone = os.pidfd_open(command)
    except ProcessLookupError:
        os._exit(1)

    def end_with_the_command():
        select.select([command_gone], [], [])
        shutil.rmtree(scratch, ignore_errors=True)
        os._exit(1)
    threading.Thread(target=end_with_the_command, daemon=True).start()


def grade_batch(course, jobs, new_executor, progress: Progress | None = None, settings: GradingBatch | None = None
                ) -> BatchReport:
    """Grade ``jobs`` on executors made by ``new_executor()``; results are recorded as they come.

    Each lesson's gradebook rows are read once; each task is made when a worker is about to be free
    (a few per worker in flight, so a large batch's files are never all in memory at once). What
    has finished is recorded in one transaction while the workers go on.

    A worker process that dies breaks a local pool; then a new pool takes the jobs left, and the
    ones that were running when it broke are tried once more before they count as failed.
    """
    report, started = BatchReport(), time.monotonic()
    settings = settings or GradingBatch(config=course.config)
    recorder = Recorder(course)
    progress = progress or Progress(len(jobs), quiet=True)
    batch = _Batch(course, settings, recorder, report, progress)
    left, tries = batch.ready(jobs), {job: 0 for job in jobs}
    try:
        while left:
            with new_executor() as executor:
                left = batch.run(left, tries, executor)
    finally:
        recorder.close()
        report.seconds = time.monotonic() - started
        progress.close()
    return report


class _Batch:
    """One grade command's batch: its lessons' rows, its tasks, its results recorded and reported."""

    def __init__(self, course, settings, recorder, report, progress):
        self.course, self.settings, self.recorder, self.report, self.progress = \
            course, settings, recorder, report, progress
        self.assignments: dict[str, AssignmentRows] = {}

    def finish(self, job, why: str | None) -> None:
        if why:
            self.report.failed[job] = why
        else:
            self.report.graded.append(job)
        self.progress.done(*job, why)

    def ready(self, jobs) -> list:
        """The jobs whose lesson's rows could be read (read once, here); the others fail now."""
        url = self.course.db_url
        unreadable = {}
        for lesson in sorted({lesson for lesson, _ in jobs}):
            try:
                self.assignments[lesson] = AssignmentRows.read(url, lesson)
            except LookupError as error:
                unreadable[lesson] = str(error)
        for job in jobs:
            if job[0] in unreadable:
                self.finish(job, unreadable[job[0]])
        return [job for job in jobs if job[0] not in unreadable]

    def task(self, job) -> Task | None:
        try:
            task = make_task(self.course, self.assignments[job[0]], job[1], self.settings.max_submission_bytes)
        except (SubmissionTooLarge, OSError) as error:
            self.finish(job, str(error) if isinstance(error, SubmissionTooLarge) else f"{type(error).__name__}: {error}")
            return None
        if task.left_out:
            self.report.left_out[job] = [str(left) for left in task.left_out]
        return task

    def run(self, jobs, tries, executor) -> list:
        """Run ``jobs`` on one executor; the jobs to run again if it broke."""
        queue, pending, again = list(jobs), {}, []
        try:
            while (queue or pending) and not again:
                while queue and len(pending) < max(2, 2 * getattr(executor, "slots", 1)):
                    job = queue.pop(0)
                    task = self.task(job)
                    if task is not None:
                        pending[executor.submit(grade_task, task)] = job
                if not pending:
                    break
                done, _ = futures.wait(pending, return_when=futures.FIRST_COMPLETED)
                executed = []
                for future in done:
                    job = pending.pop(future)
                    try:
                        executed.append(future.result())
                    except BrokenExecutor:
                        tries[job] += 1
                        if tries[job] < 2:
                            again.append(job)
                        else:
                            self.finish(job, "the worker grading it died twice (out of memory, or killed)")
                    except Exception as error:
                        self.finish(job, f"{type(error).__name__}: {error}")
                self.record(executed)
        finally:
            for future in pending:
                future.cancel()
        return again + list(pending.values()) + queue if again else []

    def record(self, executed: list) -> None:
        size = max(1, self.settings.recording_batch)
        for first in range(0, len(executed), size):
            chunk = executed[first:first + size]
            why = self.recorder.record_batch(chunk)
            for result in chunk:
                self.report.worker_seconds += result.seconds
                self.finish((result.lesson, result.student), why[(result.lesson, result.student)])


class _DaskExecutor:
    """A Dask client's executor that closes its client with it. Its workers are warmed up as they
    join, if they were not started warm already (``cluster_worker.py``)."""

    def __init__(self, scheduler: str, config):
        from distributed import Client

        from .cluster_worker import WarmGrading
        from ..kernels.settings import GradingKernels
        self.client = Client(scheduler)
        self.client.register_plugin(WarmGrading(GradingKernels.of(config).values()))
        self.executor = self.client.get_executor(pure=False)
        self._slots, self._counted = 1, 0.0

    @property
    def slots(self) -> int:
        """The cluster's threads, counted again every few seconds: workers may join while it grades."""
        if time.monotonic() - self._counted > 5:
            self._slots, self._counted = sum(self.client.nthreads().values()) or 1, time.monotonic()
        return self._slots

    def submit(self, *args, **kwargs):
        return self.executor.submit(*args, **kwargs)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.client.close()


def dask_executor(scheduler: str, config):
    """``config``: the course's, whose kernel settings the workers' zygotes are started with."""
    return _DaskExecutor(scheduler, config)
