"""nbgrader's Execute step, made to survive a submission that kills its kernel.

Plain nbgrader lets ``DeadKernelError`` escape, deletes the autograded notebook and gives the whole
submission 0. Here the cell that killed the kernel gets a ``KernelDied`` error (so it scores 0), the
kernel is restarted, the code cells above are re-run silently so their definitions exist again, and
execution goes on. If the kernel dies while re-running them, or too often, the cells left are marked
as not run (so their tests score 0) and the notebook still completes, so every other grade is stored.
"""
from nbclient.exceptions import CellTimeoutError, DeadKernelError
from nbclient.util import ensure_async, run_sync
from nbformat.notebooknode import NotebookNode
from nbgrader.preprocessors import Execute
from traitlets import Integer, Unicode


def error_output(ename: str, evalue: str) -> NotebookNode:
    """An error output as the kernel would send it (ANSI red name, like nbgrader's timeout error)."""
    return NotebookNode(output_type="error", ename=ename, evalue=evalue,
                        traceback=[f"\x1b[0;31m{ename}\x1b[0m: {evalue}"])


class ResilientExecute(Execute):

    max_kernel_deaths = Integer(
        3,
        help="How many kernel deaths in one notebook are answered by a restart. "
             "At the next one, the cells left are marked as not run.",
    ).tag(config=True)

    died_message = Unicode(
        "the kernel died while running this cell (os._exit, a crash, or running out of memory)",
        help="Error value given to the cell whose execution killed the kernel.",
    ).tag(config=True)

    stuck_message = Unicode(
        "this cell ran past the time limit and ignored the interrupt, so its kernel was restarted",
        help="Error value given to a cell that hung through its timeout and the interrupt.",
    ).tag(config=True)

    died_ename = "KernelDied"
    not_run_ename = "NotRun"

    def preprocess(self, nb, resources=None, km=None):
        self._deaths = 0
        self._gave_up = ""  # why the cells left are not run, once the notebook is given up
        return super().preprocess(nb, resources, km)

    def give_up(self, why: str) -> None:
        """Run no more cells of this notebook: each code cell left scores 0 and says ``why``."""
        self._gave_up = self._gave_up or why

    def preprocess_cell(self, cell, resources, index):
        if self._gave_up:
            if cell.cell_type == "code" and cell.source.strip():
                cell.outputs = [error_output(self.not_run_ename, f"this cell was not run: {self._gave_up}")]
            return cell, self.resources
        try:
            return super().preprocess_cell(cell, resources, index)
        except DeadKernelError:
            self._deaths += 1
            # the outputs it printed before dying stay: they help the student find where it died
            cell.outputs.append(error_output(self.died_ename, self.why_it_died() + self._recover(index)))
            return cell, self.resources
        except CellTimeoutError:  # past its time limit, and deaf to the interrupt: the kernel is stuck
            self._deaths += 1
            cell.outputs.append(error_output(self.error_on_timeout.get("ename", "CellTimeoutError"),
                                             self.stuck_message + self._recover(index)))
            return cell, self.resources

    def why_it_died(self) -> str:
        return self.died_message

    def _recover(self, index: int) -> str:
        """Restart and replay the cells above ``index``; says what happened to the cells after it."""
        if self._deaths > self.max_kernel_deaths:
            self.give_up("the kernel died too often above it")
            return f"; it died {self._deaths} times in this notebook, so the cells after it were not run"
        self.log.warning("Kernel died in cell %s; restarting it and re-running the cells above", index)
        try:
            self._restart_kernel()
            self._replay(index)
        except DeadKernelError:
            self.give_up("the kernel died again while re-running the cells above it")
            return "; it died again while re-running the cells above it, so the cells after it were not run"
        except (CellTimeoutError, TimeoutError, RuntimeError) as error:  # stuck in a replay, or would not start
            self.log.warning("Giving up on the notebook after cell %s: %s", index, error)
            self.give_up("the kernel got stuck while re-running the cells above it")
            return "; the kernel got stuck while re-running the cells above it, so the cells after it were not run"
        return "; the cells after it were run in a fresh kernel"

    async def _async_restart_kernel(self) -> None:
        # same connection file and launch arguments (cwd, extra_arguments) as the first kernel
        await ensure_async(self.kc.stop_channels())
        await ensure_async(self.km.restart_kernel(now=True))
        await self.async_start_new_kernel_client()

    _restart_kernel = run_sync(_async_restart_kernel)

    def _replay(self, index: int) -> None:
        """Re-run the code cells above ``index`` silently: their outputs in the notebook are kept.

        A replayed cell that runs out its time is not waited for again and again: the replay stops.
        """
        for cell in self.nb.cells[:index]:
            if self._replayable(cell):
                if self.wait_for_reply(self.kc.execute(cell.source, silent=True, store_history=False), cell) is None:
                    raise CellTimeoutError("a cell ran past its time limit while being re-run")

    def _replayable(self, cell: NotebookNode) -> bool:
        # a cell that killed the kernel, or hung until its timeout, would only do it again
        failed = {self.died_ename, self.not_run_ename, self.error_on_timeout.get("ename")}
        return (cell.cell_type == "code" and bool(cell.source.strip())
                and self.skip_cells_with_tag not in cell.metadata.get("tags", [])
                and not any(o.output_type == "error" and o.ename in failed for o in cell.get("outputs", [])))
