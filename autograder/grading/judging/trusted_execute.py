"""nbgrader's Execute step with the verdict taken out of the student's kernel.

The notebook's own cells run in a kernel alone in its box (``kernels/``: its own uid, root, control
group, scratch space and environment, one ``Fence`` built from ``c.GradingKernels``). At a graded
test cell the kernel does not run the cell: the grader draws fresh seeds and, for each, asks the
kernel to run the student's function on the inputs it rebuilds from that seed and to send back what
it saw as plain data (``course.kernel_side``, ``trials.py``). The expected values are computed here,
with real PyTorch, and the exercise's judge writes the cell's outcome here (``verdict.py``). A
notebook that rewrites anything in its kernel can only change the data it sends; to pass it must
send the right values for inputs it did not choose.

Limits: a notebook that goes past its memory or process cap (its kernel and all its children), its
output caps (``output_caps.py``) or its wall-clock limit (``limits.py``) stops there; the cells left
score 0 and say why. Nothing a kernel sends can make this process fail: a reply that cannot be read
or judged is that cell's or exercise's loss. Every other notebook is unaffected.
"""
import asyncio
import os
import shutil
import tempfile
import time

from nbclient.exceptions import CellExecutionComplete, CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from traitlets import Float, Integer, default

from course.checks.answer_warnings import Warned
from course.exercise import lesson_module
from course.outcome import Verdict

from ..kernels.manager import SandboxedKernelManager
from ..kernels.settings import GradingKernels
from . import limits
from .output_caps import OutputCaps, message_size
from .pictures import Pictures
from .resilient_execute import ResilientExecute, error_output
from .trials import LIMIT, Trials, graded_exercise, observations, request_cell, timed_out, too_slow, warnings_sent
from .verdict import seeds, unreadable

_warned: dict = {}


class TrustedExecute(ResilientExecute):

    trials = Integer(3, help="Fresh random inputs each graded exercise is tried on.").tag(config=True)
    replay_seed = Integer(None, allow_none=True, help="Seed of every graded exercise's first trial, to replay "
                          "a failure its message reported; None: a fresh seed each time.").tag(config=True)
    output_limit = Integer(1_000_000, help="Bytes of IOPub messages one cell may send before it is "
                                           "stopped.").tag(config=True)
    notebook_output_limit = Integer(20_000_000, help="Bytes of IOPub messages a whole notebook may send "
                                                     "(display updates and comms included).").tag(config=True)
    notebook_timeout = Integer(900, help="Wall-clock seconds one notebook may take, restarts and replays "
                                         "included; the cells after that are not run.").tag(config=True)
    max_pictures = Integer(64, help="Course figures this process draws for one notebook (its kernel "
                                    "describes them, pictures.py); past that, they say so.").tag(config=True)
    picture_seconds = Float(30.0, help="Seconds this process may spend drawing one notebook's course figures; "
                                       "past that, they say so.").tag(config=True)

    @default("store_widget_state")
    def _no_widget_state(self):
        """A graded notebook keeps no widget state: it would be a kernel's to fill without bound."""
        return False

    @default("shutdown_kernel")
    def _kill_when_done(self):
        """A graded notebook's kernel has nothing to save: kill it rather than wait for it to wind down."""
        return "immediate"

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("kernel_manager_class", SandboxedKernelManager)  # nbgrader's own default is plain
        super().__init__(*args, **kwargs)

    def preprocess(self, nb, resources=None, km=None):
        assignment = (resources or {}).get("nbgrader", {}).get("assignment", "")
        self._lesson = lesson_module(assignment) if assignment else ""
        self._deadline = limits.Deadline(self.notebook_timeout)
        self._caps = OutputCaps(self.output_limit, self.notebook_output_limit, self._interrupt, self.log)
        self._pictures = Pictures(self.max_pictures, self.picture_seconds, self.notebook_output_limit)
        self._asking = False
        return super().preprocess(nb, resources, km)

    # --- the kernel ---------------------------------------------------------------------------

    @property
    def kernels(self) -> GradingKernels:
        """How its kernels start and what fences them (``c.GradingKernels``, kernels/settings.py)."""
        return GradingKernels.of(self.config)

    def create_kernel_manager(self):
        kernels = self.kernels
        fence = kernels.boxed_fence()  # refused without a box, unless c.GradingKernels.allow_unboxed says so
        if fence.missing and not _warned:  # said once, at the start of grading
            _warned["said"] = True
            self.log.warning("Grading kernels are %s: %s. The verdict is still computed outside them; what is "
                             "listed is what a notebook could reach or use beyond its own share.",
                             "fenced WITHOUT" if fence.namespaces else "NOT sandboxed (allowed by "
                             "c.GradingKernels.allow_unboxed)", "; ".join(fence.missing))
        if not self.kernel_name:
            self.kernel_name = self.nb.metadata.get("kernelspec", {}).get("name") or "python3"
        self.km = self.kernel_manager_class(kernel_name=self.kernel_name, config=self.config, fence=fence,
                                            factory=kernels.zygote(),
                                            message_limit=self.output_limit + 1)
        return self.km

    async def async_start_new_kernel(self, **kwargs):
        cwd = kwargs.get("cwd") or self.resources.get("metadata", {}).get("path")
        factory = self.km.factory
        if cwd:  # the kernel starts from a copy (which it copies again into its own scratch space)
            copy = factory.scratch("cwd-") if factory is not None else tempfile.mkdtemp(prefix="autograd-cwd-")
            shutil.copytree(cwd, copy, dirs_exist_ok=True, symlinks=True)
            self.km.scratch_dirs.append(copy)
            cwd = kwargs["cwd"] = copy
            self.km.work = os.path.abspath(cwd)
        await super().async_start_new_kernel(**kwargs)

    start_new_kernel = run_sync(async_start_new_kernel)  # nbclient binds its own otherwise

    def _interrupt(self) -> None:
        asyncio.ensure_future(ensure_async(self.km.interrupt_kernel()))

    # --- cells ------------------------------------------------------------------------------

    def preprocess_cell(self, cell, resources, index):
        if not self._gave_up and self._deadline.remaining() <= 0:
            self.give_up(self._deadline.why())
        self._caps.new_cell()
        exercise = graded_exercise(cell, self._lesson)
        if exercise is None or self._gave_up:
            try:
                cell, resources = super().preprocess_cell(cell, resources, index)
            except Exception as error:  # noqa: BLE001  (a reply the kernel shaped to break the reader)
                self.log.warning("Cell %s: unreadable reply from the kernel (%s)", index, type(error).__name__)
                cell.outputs.append(error_output("UnreadableReply", "the kernel's reply to this cell could not be "
                                                 f"read ({type(error).__name__}); the cell scores nothing"))
                resources = self.resources
            self._check_limits(cell)
            return cell, resources
        return self._grade(cell, exercise, index), self.resources

    def _get_timeout(self, cell):
        """A cell's timeout, never past the notebook's own deadline (replays included)."""
        return self._deadline.cell_timeout(super()._get_timeout(cell))

    def why_it_died(self) -> str:
        return limits.why_it_died(self.km, self.kc, self._asking, self.died_message)

    def _recover(self, index: int) -> str:
        why = limits.breach(self.km) or ("" if self._asking else limits.cut(self.km, self.kc))
        if why:
            self.give_up(f"a cell above {why}")
            return f"; {why}, so the cells after it were not run"
        if self._deadline.remaining() <= 0:
            self.give_up(self._deadline.why())
            return f"; {self._deadline.why()}, so the cells after it were not run"
        return super()._recover(index)

    def _check_limits(self, cell) -> None:
        """A breach stops the notebook: this cell says which limit, the cells after it are not run."""
        if cell.cell_type != "code" or self._gave_up:
            return
        why = self._caps.overflow or limits.breach(self.km) or limits.out_of_memory(cell, self.km)
        if why:
            cell.outputs.append(error_output("LimitExceeded", f"this cell was stopped: {why}"))
            self.give_up(f"a cell above {why}")

    def process_message(self, msg, cell, cell_index):
        """Every IOPub message counts against the caps, whatever its type, before nbclient reads it;
        a course figure the kernel described is drawn here (``pictures.py``)."""
        self._caps.count(message_size(msg), cell_index, kept=not msg.get("oversized"))
        if self._caps.unread(msg):
            return None
        try:
            self._pictures.show(msg, kept=not self._asking)
            return super().process_message(msg, cell, cell_index)
        except CellExecutionComplete:
            raise
        except Exception as error:  # noqa: BLE001  (a message shaped to break nbclient's reader)
            self.log.warning("Cell %s: dropped a %s message that could not be read (%s)", cell_index,
                             msg.get("msg_type", ""), type(error).__name__)
            return None

    # --- a graded exercise, judged in the trusted process --------------------------------------

    def _grade(self, cell, exercise, index) -> NotebookNode:
        started = time.monotonic()
        tried = Trials(exercise, seeds(self.trials, self.replay_seed, exercise))
        try:
            sent, stopped, tried.warned = self._ask(exercise, tried.seeds, index)
            tried.judge(sent, stopped)
        except Exception as error:  # noqa: BLE001  (whatever the kernel sent, this process goes on)
            self.log.warning("%s: unreadable reply from the kernel (%s: %s)", exercise.name, type(error).__name__,
                             error)
            tried.result = unreadable(exercise, type(error).__name__)
        self.nb.cells[index] = cell  # the request stood in the graded cell's place: undo that
        cell.outputs = tried.outputs()
        cell.metadata["autograd_course"] = tried.metadata(time.monotonic() - started)
        return cell

    def _ask(self, exercise, trial_seeds: list[int], index: int) -> tuple[list[str], Verdict | None, Warned]:
        """What the answer did on each seed's inputs, why the kernel stopped before answering them all,
        if it did, and the warnings the answer gave."""
        request = request_cell(exercise, trial_seeds)
        self._caps.new_cell()
        self.nb.cells[index] = request  # a display the kernel updates during the request is the request's own
        stopped = self._run_request(request, exercise, index)
        if over := self._past_a_cap(exercise):
            return [], over, Warned()
        if stopped is None and timed_out(request, self.error_on_timeout):
            stopped = too_slow(exercise, self.timeout, ": an endless loop, or far too much work?")
        return observations(request), stopped, warnings_sent(request, len(trial_seeds))

    def _run_request(self, request, exercise, index: int) -> Verdict | None:
        """Run the request; a kernel that died or hung in it is restarted, and that is its verdict."""
        self._asking = True
        try:
            self.execute_cell(request, index, store_history=False)
        except DeadKernelError:
            self._deaths += 1
            return Verdict(LIMIT, self.why_it_died() + self._recover(index), "kernel_died")
        except CellTimeoutError:
            self._deaths += 1
            return too_slow(exercise, self.timeout, " and ignored the interrupt" + self._recover(index))
        finally:  # displays the kernel opened during the request must not reach the graded cell
            self._asking = False
            self.clear_display_id_mapping(index)
        return None

    def _past_a_cap(self, exercise) -> Verdict | None:
        """A request past a cap: the notebook's output cap or its box's stops the notebook, a cell's
        output cap costs this exercise."""
        if self._caps.flooded:
            self.give_up(f"a cell above: {self._caps.flooded}")
            return Verdict(LIMIT, f"`{exercise.name}` stopped: {self._caps.flooded}.", "output_limit")
        if self._caps.overflow:
            return Verdict(LIMIT, f"`{exercise.name}` printed more than {self.output_limit} bytes.",
                           "output_limit")
        if breach := limits.breach(self.km):
            self.give_up(f"a cell above: {breach}")
            return Verdict(LIMIT, f"`{exercise.name}` stopped: {breach}.", "limit")
        return None
