"""nbgrader's Execute step with the verdict taken out of the student's kernel.

The notebook's own cells run in a sandboxed kernel (``kernel_manager.py``, ``sandbox.py``). At a
graded test cell the kernel does not run the cell: the grader draws fresh seeds and, for each,
asks the kernel to run the student's function on the inputs it rebuilds from that seed and to send
back what it saw as plain data (``course.kernel_side``). The expected values are computed here,
with real PyTorch, and the exercise's judge writes the cell's outcome here. A notebook that rewrites
anything in its kernel can only change the data it sends; to pass it must send the right values
for inputs it did not choose.

Limits: a notebook that goes past its memory cap, prints more than its output cap, or runs past its
wall-clock limit stops there; the cells left score 0 and say why. Every other notebook is unaffected.
"""
import asyncio
import html
import json
import os
import shutil
import tempfile
import time

import nbformat
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from traitlets import Bool, Integer, default

from course.checks.observation import MIME
from course.exercise import exercises_of, lesson_module
from course.outcome import CORRECT, Verdict

from ..authoring.lesson_script import exercise_of_test
from .kernel_manager import SANDBOX, WARM_KERNELS, KernelFactory, SandboxedKernelManager, fence_refusal
from .resilient_execute import ResilientExecute, error_output
from .verdict import judge_sent, seeds

TIMEOUT, LIMIT = "timeout", "limit"
ENAMES = {"incorrect": "Incorrect", "not_attempted": "NotAttempted", "raised": "Error", TIMEOUT: "CellTimeoutError",
          LIMIT: "KernelDied"}
MEMORY_ERRORS = ("MemoryError", "can't allocate memory", "Cannot allocate memory", "std::bad_alloc")
_warned: dict = {}


class TrustedExecute(ResilientExecute):

    trials = Integer(3, help="Fresh random inputs each graded exercise is tried on.").tag(config=True)
    memory_limit = Integer(2 * 1024**3, help="Address-space cap of a grading kernel, in bytes.").tag(config=True)
    output_limit = Integer(1_000_000, help="Bytes of output one cell may print before it is stopped.").tag(config=True)
    notebook_timeout = Integer(900, help="Wall-clock seconds one notebook may take; the cells after "
                                         "that are not run.").tag(config=True)
    sandbox = Bool(SANDBOX, help="Fence kernels in (namespaces, hidden course files, no network, "
                                 "unprivileged user) where the OS allows it.").tag(config=True)
    max_processes = Integer(1024, help="Processes and threads a kernel's user may have.").tag(config=True)
    warm_kernels = Bool(WARM_KERNELS, help="Fork each kernel from a warm parent that has imported torch and "
                                           "the course already, instead of starting Python afresh.").tag(config=True)
    max_file = Integer(256 * 1024**2, help="Largest file a kernel may write, in bytes.").tag(config=True)

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
        self._output_bytes, self._overflow = 0, False
        return super().preprocess(nb, resources, km)

    def create_kernel_manager(self):
        refused = fence_refusal(self.sandbox)
        if refused and not _warned:
            _warned["said"] = True
            self.log.warning("Grading kernels are NOT sandboxed: %s. They still run with memory, file and "
                             "process limits and the verdict is still computed outside them, but a notebook "
                             "could read files this user can read and use the network.", refused)
        options = {"no_namespaces": bool(refused), "memory": self.memory_limit, "max_file": self.max_file,
                   "max_processes": self.max_processes}
        if self.warm_kernels:
            options["factory"] = KernelFactory.shared(namespaces=not refused)
        if not self.kernel_name:
            self.kernel_name = self.nb.metadata.get("kernelspec", {}).get("name") or "python3"
        self.km = self.kernel_manager_class(kernel_name=self.kernel_name, config=self.config,
                                            sandbox_options=options)
        return self.km

    async def async_start_new_kernel(self, **kwargs):
        cwd = kwargs.get("cwd") or self.resources.get("metadata", {}).get("path")
        factory = self.km.sandbox_options.get("factory")
        if cwd:  # the kernel works in a copy: nothing it writes, links or leaves reaches the course's folders
            copy = factory.scratch("cwd-") if factory is not None else tempfile.mkdtemp(prefix="autograd-cwd-")
            shutil.copytree(cwd, copy, dirs_exist_ok=True, symlinks=True)
            self.km.scratch_dirs.append(copy)
            cwd = kwargs["cwd"] = copy
        if cwd:
            self.km.sandbox_options = {**self.km.sandbox_options, "cwd": os.path.abspath(cwd)}
        await super().async_start_new_kernel(**kwargs)

    start_new_kernel = run_sync(async_start_new_kernel)  # nbclient binds its own otherwise

    # --- cells ------------------------------------------------------------------------------

    def preprocess_cell(self, cell, resources, index):
        if not self._gave_up and time.monotonic() - self._started > self.notebook_timeout:
            self.give_up(f"the notebook ran past its time limit of {self.notebook_timeout} s")
        self._output_bytes, self._overflow = 0, False
        exercise = self._graded_exercise(cell)
        if exercise is None or self._gave_up:
            cell, resources = super().preprocess_cell(cell, resources, index)
            self._check_limits(cell)
            return cell, resources
        return self._grade(cell, exercise, index), self.resources

    def _graded_exercise(self, cell):
        meta = cell.metadata.get("nbgrader", {})
        if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution") or not self._lesson:
            return None
        name = exercise_of_test(meta.get("grade_id", ""))
        return exercises_of(self._lesson).get(name) if name else None

    def _check_limits(self, cell) -> None:
        """A breach stops the notebook: this cell says which limit, the cells after it are not run."""
        if self._overflow:
            why = f"it printed more than the output limit of {self.output_limit} bytes"
        elif any(o.get("output_type") == "error" and any(m in f"{o.get('ename')}: {o.get('evalue')}"
                                                          for m in MEMORY_ERRORS) for o in cell.get("outputs", [])):
            why = f"it went past the memory limit of {self.memory_limit / 1024**3:g} GiB"
        else:
            return
        cell.outputs.append(error_output("LimitExceeded", f"this cell was stopped: {why}"))
        self.give_up(f"a cell above {why}")

    # --- grading in the trusted process -------------------------------------------------------

    def _grade(self, cell, exercise, index) -> NotebookNode:
        started = time.monotonic()
        trial_seeds = seeds(self.trials)
        sent, stopped = self._ask(exercise, trial_seeds, index)
        result, seed = Verdict(CORRECT), None
        for seed, observation in zip(trial_seeds, sent + [None] * len(trial_seeds)):
            result = stopped if observation is None and stopped else judge_sent(exercise, seed, observation)
            if not result.passed:
                break
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
        self._output_bytes, self._overflow, stopped = 0, False, None
        self.nb.cells[index] = request  # a display the kernel updates during the request is the request's own
        try:
            self.execute_cell(request, index, store_history=False)
        except DeadKernelError:
            self._deaths += 1
            stopped = Verdict(LIMIT, self.died_message + self._recover(index), "kernel_died")
        except CellTimeoutError:
            self._deaths += 1
            stopped = Verdict(TIMEOUT, f"`{exercise.name}` ran past the time limit of {self.timeout} s on the "
                              "grader's inputs and ignored the interrupt" + self._recover(index), "timeout")
        finally:  # displays the kernel opened during the request must not reach the graded cell
            self.clear_display_id_mapping(index)
        if self._overflow:
            return [], Verdict(LIMIT, f"`{exercise.name}` printed more than {self.output_limit} bytes.", "output_limit")
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

    # --- the output cap ---------------------------------------------------------------------

    def output(self, outs, msg, display_id, cell_index):
        self._output_bytes += len(json.dumps(msg.get("content", {}), default=str))
        if self._output_bytes > self.output_limit:
            if not self._overflow:
                self._overflow = True
                self.log.warning("Cell %s printed more than %s bytes; interrupting it", cell_index, self.output_limit)
                asyncio.ensure_future(ensure_async(self.km.interrupt_kernel()))
            return None
        return super().output(outs, msg, display_id, cell_index)
