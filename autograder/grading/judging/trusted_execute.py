"""nbgrader's Execute step with the verdict taken out of the student's kernel.

The notebook's own cells run in a kernel alone in its box (``kernels/``: its own uid, root, control
group, scratch space and environment, one ``Fence`` built from the settings below). At a
graded test cell the kernel does not run the cell: the grader draws fresh seeds and, for each,
asks the kernel to run the student's function on the inputs it rebuilds from that seed and to send
back what it saw as plain data (``course.kernel_side``). The expected values are computed here,
with real PyTorch, and the exercise's judge writes the cell's outcome here. A notebook that rewrites
anything in its kernel can only change the data it sends; to pass it must send the right values
for inputs it did not choose.

Limits: a notebook that goes past its memory or process cap (its kernel and all its children),
sends more than its output caps (every IOPub message counts: outputs, display updates, comms,
clear_output), or runs past its wall-clock limit (restarts and replays included) stops there; the
cells left score 0 and say why. Nothing a kernel sends can make this process fail: a reply that
cannot be read or judged is that cell's or exercise's loss. Every other notebook is unaffected.
"""
import asyncio
import html
import json
import os
import shutil
import tempfile
import time

import nbformat
from nbclient.exceptions import CellExecutionComplete, CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from traitlets import Integer, default

from course.checks.observation import MIME
from course.exercise import exercises_of, lesson_module
from course.grade_ids import exercise_of_test
from course.outcome import CORRECT, Verdict

from ..kernels.manager import SandboxedKernelManager
from ..kernels.settings import GradingKernels
from .resilient_execute import ResilientExecute, error_output
from .verdict import judge_sent, seeds, unreadable

TIMEOUT, LIMIT = "timeout", "limit"
ENAMES = {"incorrect": "Incorrect", "not_attempted": "NotAttempted", "raised": "Error", TIMEOUT: "CellTimeoutError",
          LIMIT: "KernelDied"}
MEMORY_ERRORS = ("MemoryError", "can't allocate memory", "Cannot allocate memory", "std::bad_alloc")
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
        self._started = time.monotonic()
        self._output_bytes, self._notebook_bytes, self._overflow, self._flooded = 0, 0, "", ""
        self._interrupted_at, self._asking = 0, False
        return super().preprocess(nb, resources, km)

    @property
    def kernels(self) -> GradingKernels:
        """How its kernels start and what fences them (``c.GradingKernels``, kernels/settings.py)."""
        return GradingKernels.of(self.config)

    def create_kernel_manager(self):
        kernels = self.kernels
        fence = kernels.fence()
        if fence.missing and not _warned:  # said once, at the start of grading
            _warned["said"] = True
            self.log.warning("Grading kernels are %s: %s. The verdict is still computed outside them; what is "
                             "listed is what a notebook could reach or use beyond its own share.",
                             "fenced WITHOUT" if fence.namespaces else "NOT sandboxed", "; ".join(fence.missing))
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

    # --- cells ------------------------------------------------------------------------------

    def preprocess_cell(self, cell, resources, index):
        if not self._gave_up and self._remaining() <= 0:
            self.give_up(f"the notebook ran past its time limit of {self.notebook_timeout} s")
        self._output_bytes, self._overflow = 0, self._flooded
        exercise = self._graded_exercise(cell)
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

    def _remaining(self) -> float:
        return self.notebook_timeout - (time.monotonic() - self._started)

    def _get_timeout(self, cell):
        """A cell's timeout, never past the notebook's own deadline (replays included)."""
        timeout = super()._get_timeout(cell)
        left = max(1, int(self._remaining()) + 1)
        return left if timeout is None else min(timeout, left)

    def _breach(self) -> str:
        """Why the kernel's box says it went past a cap since last asked ('' if it did not)."""
        hit = self.km.breaches() if self.km is not None and hasattr(self.km, "breaches") else []
        if "memory" in hit:
            return f"it went past the memory limit of {self.km.fence.memory / 1024**3:g} GiB (its processes together)"
        if "processes" in hit:
            return f"it started more than the {self.km.fence.max_processes} processes and threads a notebook may have"
        return ""

    def _cut(self) -> str:
        """Why the grader cut the kernel's connection ('' if it did not)."""
        cut = getattr(self.km, "cut", "")
        if not cut:
            return ""
        what = (f"it printed more than the output limit in one message (a part over {self.kc.max_part} bytes)"
                if cut == "iopub" else f"it sent a message part over {self.kc.max_part} bytes on its {cut} channel")
        return f"{what} and the grader cut the connection"

    def why_it_died(self) -> str:
        """A kernel cut off for what it sent did not die: the grader stopped listening to it. As with
        the output caps, a cell's cut stops the notebook, a trial's costs that exercise (the kernel is
        restarted and the cells after it run)."""
        cut = self._cut()
        return f"this cell was stopped: {cut}" if cut and self._asking else (
            "the grader stopped this cell" if cut else self.died_message)

    def _recover(self, index: int) -> str:
        why = self._breach() or ("" if self._asking else self._cut())
        if why:
            self.give_up(f"a cell above {why}")
            return f"; {why}, so the cells after it were not run"
        if self._remaining() <= 0:
            self.give_up(f"the notebook ran past its time limit of {self.notebook_timeout} s")
            return f"; the notebook ran past its time limit of {self.notebook_timeout} s, so the cells after it were not run"
        return super()._recover(index)

    def _graded_exercise(self, cell):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution") or not self._lesson:
            return None
        name = exercise_of_test(meta.get("grade_id", ""))
        return exercises_of(self._lesson).get(name) if name else None

    def _check_limits(self, cell) -> None:
        """A breach stops the notebook: this cell says which limit, the cells after it are not run."""
        if cell.cell_type != "code" or self._gave_up:
            return
        if self._overflow:
            why = self._overflow
        elif breach := self._breach():
            why = breach
        elif any(o.get("output_type") == "error" and any(m in f"{o.get('ename')}: {o.get('evalue')}"
                                                          for m in MEMORY_ERRORS) for o in cell.get("outputs", [])):
            why = f"it went past the memory limit of {self.km.fence.memory / 1024**3:g} GiB"
        else:
            return
        cell.outputs.append(error_output("LimitExceeded", f"this cell was stopped: {why}"))
        self.give_up(f"a cell above {why}")

    # --- grading in the trusted process -------------------------------------------------------

    def _grade(self, cell, exercise, index) -> NotebookNode:
        started = time.monotonic()
        trial_seeds = seeds(self.trials, self.replay_seed)
        result, seed = Verdict(CORRECT), None
        try:
            sent, stopped = self._ask(exercise, trial_seeds, index)
            for seed, observation in zip(trial_seeds, sent + [None] * len(trial_seeds)):
                result = stopped if observation is None and stopped else judge_sent(exercise, seed, observation)
                if not result.passed:
                    break
        except Exception as error:  # noqa: BLE001  (whatever the kernel sent, this process goes on)
            self.log.warning("%s: unreadable reply from the kernel (%s: %s)", exercise.name, type(error).__name__, error)
            result = unreadable(exercise, type(error).__name__)
        self.nb.cells[index] = cell  # the request stood in the graded cell's place: undo that
        cell.outputs = [self._render(result, exercise, seed)]
        cell.metadata["autograd_course"] = {
            "exercise": exercise.name, "outcome": result.outcome, "kind": result.kind,
            "message": result.message.split("\n")[0], "seed": seed,
            "seconds": round(time.monotonic() - started, 3)}
        return cell

    def _ask(self, exercise, trial_seeds: list[int], index: int) -> tuple[list[str], Verdict | None]:
        """What the answer did on each seed's inputs, asked in one request (a round trip per exercise,
        not per trial), and why the kernel stopped before answering them all, if it did.

        Seed k's observation is the k-th one sent. The kernel runs every seed even after a wrong one;
        the verdict here is still the first seed that fails, judged in order.
        """
        request = nbformat.v4.new_code_cell(f"from course.kernel_side import respond_each; "
                                            f"respond_each({exercise.lesson!r}, {exercise.name!r}, {trial_seeds!r})")
        self._output_bytes, self._overflow, stopped = 0, self._flooded, None
        self.nb.cells[index] = request  # a display the kernel updates during the request is the request's own
        self._asking = True
        try:
            self.execute_cell(request, index, store_history=False)
        except DeadKernelError:
            self._deaths += 1
            stopped = Verdict(LIMIT, self.why_it_died() + self._recover(index), "kernel_died")
        except CellTimeoutError:
            self._deaths += 1
            stopped = Verdict(TIMEOUT, f"`{exercise.name}` ran past the time limit of {self.timeout} s on the "
                              "grader's inputs and ignored the interrupt" + self._recover(index), "timeout")
        finally:  # displays the kernel opened during the request must not reach the graded cell
            self._asking = False
            self.clear_display_id_mapping(index)
        if self._flooded:
            self.give_up(f"a cell above: {self._flooded}")
            return [], Verdict(LIMIT, f"`{exercise.name}` stopped: {self._flooded}.", "output_limit")
        if self._overflow:
            return [], Verdict(LIMIT, f"`{exercise.name}` printed more than {self.output_limit} bytes.", "output_limit")
        breach = self._breach()
        if breach:
            self.give_up(f"a cell above: {breach}")
            return [], Verdict(LIMIT, f"`{exercise.name}` stopped: {breach}.", "limit")
        errors = [o for o in request.outputs if o.get("output_type") == "error"]
        if stopped is None and any(o.get("ename") == self.error_on_timeout.get("ename") for o in errors):
            stopped = Verdict(TIMEOUT, f"`{exercise.name}` ran past the time limit of {self.timeout} s on the "
                              "grader's inputs: an endless loop, or far too much work?", "timeout")
        sent = [o["data"][MIME] for o in request.outputs
                if o.get("output_type") == "display_data" and isinstance(o.get("data", {}).get(MIME), str)]
        return sent, stopped

    def _render(self, result: Verdict, exercise, seed) -> NotebookNode:
        if result.passed:
            text = f"Correct: `{exercise.name}` matches PyTorch on {self.trials} fresh random inputs."
            return nbformat.v4.new_output("display_data", data={
                "text/plain": text, "text/html": f'<div style="color:#1b7837">{html.escape(text)}</div>'})
        where = f"\n(graded on fresh random inputs; seed {seed})" if result.outcome != LIMIT else ""
        return error_output(ENAMES.get(result.outcome, "Incorrect"), result.message + where)

    # --- the output caps ---------------------------------------------------------------------

    def process_message(self, msg, cell, cell_index):
        """Every IOPub message counts against the caps, whatever its type, before nbclient reads it.

        Comms are counted and dropped (graded notebooks keep no widget state); a message too large
        to decode (``BoundedSession``) arrives empty and only counts; past a cap, nothing but the
        kernel's status is read, and the kernel is interrupted once.
        """
        size = msg.get("wire_bytes")
        self._count(len(json.dumps(msg.get("content", {}), default=str)) if size is None else size, cell_index,
                    kept=not msg.get("oversized"))
        kind = msg.get("msg_type", "")
        if kind != "status" and (self._overflow or msg.get("oversized") or kind.startswith("comm")):
            return None
        try:
            return super().process_message(msg, cell, cell_index)
        except CellExecutionComplete:
            raise
        except Exception as error:  # noqa: BLE001  (a message shaped to break nbclient's reader)
            self.log.warning("Cell %s: dropped a %s message that could not be read (%s)", cell_index, kind,
                             type(error).__name__)
            return None

    def _count(self, size: int, cell_index, kept: bool = True) -> None:
        """Every message counts toward its cell's cap; toward the notebook's, those read (not too large to
        decode) before a cap was hit.

        Past the cell's cap, the kernel is interrupted again at each further cap's worth of messages
        (an answer called once per trial, or a cell that catches the interrupt, keeps sending).
        """
        self._output_bytes += size
        if not self._overflow:
            self._notebook_bytes += size if kept else 0
            if self._notebook_bytes > self.notebook_output_limit:
                self._overflow = self._flooded = (f"the notebook sent more than its output limit of "
                                                  f"{self.notebook_output_limit} bytes")
            elif self._output_bytes > self.output_limit:
                self._overflow = f"it printed more than the output limit of {self.output_limit} bytes"
            if self._overflow:
                self.log.warning("Cell %s: %s; interrupting it", cell_index, self._overflow)
                self._interrupted_at = self._output_bytes
                asyncio.ensure_future(ensure_async(self.km.interrupt_kernel()))
        elif self._output_bytes - self._interrupted_at > self.output_limit:
            self._interrupted_at = self._output_bytes
            asyncio.ensure_future(ensure_async(self.km.interrupt_kernel()))
