"""Where ``autograd-course grade`` runs its workers: the settings, apart from the fan-out itself so
the command can read them before it imports the grader (``warm_start.py``)."""
import os

from traitlets import Integer, Unicode, default
from traitlets.config import Configurable

SERVICE_ENVIRONMENT = "AUTOGRAD_COURSE_GRADING_SERVICE"  # the hub gives the instructor's server this


def default_workers() -> int:
    """One more than the cores. A worker and its kernel take turns (the worker sends a cell and waits,
    the kernel runs it and waits), so with one worker per core both cores idled a tenth of the time
    after the start; a worker more fills it (measured side by side: benchmarks/results.md)."""
    return max(1, os.cpu_count() or 1) + 1


class GradingBatch(Configurable):
    """Where ``autograd-course grade`` runs its workers; set in nbgrader_config.py, or on the command line."""

    workers = Integer(0, help="Local worker processes; 0 means one more than the cores.").tag(config=True)
    scheduler = Unicode("", help="A Dask distributed scheduler (tcp://host:port) to grade on its workers "
                                 "instead; they need the instructor package, nothing of the course.").tag(config=True)
    service = Unicode(help="The socket of a grading service (grading_service.py) that boxes each kernel for "
                           "an account that is not root, as on the class hub; used when this account cannot box "
                           f"kernels itself. Default: ${SERVICE_ENVIRONMENT}, which the hub sets.").tag(config=True)
    max_submission_bytes = Integer(64 * 1024**2, help="Largest a submission's files may be in all, in bytes: "
                                                      "a grading task carries them to its worker.").tag(config=True)
    recording_batch = Integer(200, help="Most graded submissions the recorder writes in one "
                                        "transaction.").tag(config=True)

    @default("service")
    def _service_from_environment(self) -> str:
        return os.environ.get(SERVICE_ENVIRONMENT, "")
