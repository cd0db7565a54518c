"""An exercise's trials: the one request that asks the kernel what the answer did on each seed's
inputs, what it sent back, the verdict on the first trial that fails, and that verdict as the graded
cell shows it.

Seed k's observation is the k-th one sent. The kernel runs every seed even after a wrong one; the
verdict here is still the first seed that fails, judged in order.

The warnings the answer gave during the trials come beside the observations, as plain data the
verdict never reads; under a failing verdict the graded cell shows each once, as text before the
verdict, where plain nbgrader's run of the check shows them.
"""
import html

import nbformat
from nbformat.notebooknode import NotebookNode

from course.checks.answer_warnings import MIME as WARNINGS_MIME, Warned
from course.checks.observation import MIME
from course.exercise import exercises_of
from course.grade_ids import exercise_of_test
from course.outcome import CORRECT, Verdict

from .resilient_execute import error_output
from .verdict import judge_sent

TIMEOUT, LIMIT = "timeout", "limit"
ENAMES = {"incorrect": "Incorrect", "not_attempted": "NotAttempted", "raised": "Error", TIMEOUT: "CellTimeoutError",
          LIMIT: "KernelDied"}


def graded_exercise(cell, lesson: str):
    """The exercise a graded test cell of ``lesson`` checks (None: the cell is run as it is)."""
    meta = cell.metadata.get("nbgrader", {})
    if cell.cell_type != "code" or not meta.get("grade") or meta.get("solution") or not lesson:
        return None
    name = exercise_of_test(meta.get("grade_id", ""))
    return exercises_of(lesson).get(name) if name else None


def request_cell(exercise, seeds: list[int]) -> NotebookNode:
    """The cell that asks for every trial at once: a round trip per exercise, not per trial."""
    return nbformat.v4.new_code_cell(f"from course.kernel_side import respond_each; "
                                     f"respond_each({exercise.lesson!r}, {exercise.name!r}, {seeds!r})")


def _sent(request) -> list[dict]:
    return [o["data"] for o in request.outputs
            if o.get("output_type") == "display_data" and isinstance(o.get("data", {}).get(MIME), str)]


def observations(request) -> list[str]:
    """What the kernel sent back, one observation per seed, in order."""
    return [data[MIME] for data in _sent(request)]


def warnings_sent(request, trials: int) -> Warned:
    """The warnings sent beside the trials' observations (those past the trials' count are not read),
    each once and capped; a field that could not be read is said so."""
    warned = Warned()
    for data in _sent(request)[:trials]:
        if WARNINGS_MIME in data:
            warned.read(data[WARNINGS_MIME])
    return warned


def timed_out(request, error_on_timeout: dict) -> bool:
    """The request ran past its time limit and was interrupted (the kernel lived on)."""
    return any(o.get("output_type") == "error" and o.get("ename") == error_on_timeout.get("ename")
               for o in request.outputs)


def too_slow(exercise, timeout, why: str) -> Verdict:
    return Verdict(TIMEOUT, f"`{exercise.name}` ran past the time limit of {timeout} s on the grader's inputs{why}",
                   "timeout")


class Trials:
    """One graded exercise's seeds and, once judged, its verdict and the seed it was reached on."""

    def __init__(self, exercise, seeds: list[int]):
        self.exercise, self.seeds = exercise, seeds
        self.result, self.seed = Verdict(CORRECT), None
        self.warned = Warned()  # what the answer's calls warned of, as the kernel sent it

    def judge(self, sent: list[str], stopped: Verdict | None) -> None:
        """The first trial that fails, in seed order; a trial the kernel stopped before answering gets
        ``stopped`` (if it said why) or "no result"."""
        for self.seed, observation in zip(self.seeds, sent + [None] * len(self.seeds)):
            self.result = (stopped if observation is None and stopped
                           else judge_sent(self.exercise, self.seed, observation))
            if not self.result.passed:
                break

    def outputs(self) -> list[NotebookNode]:
        """The graded cell's outputs: under a verdict that fails, the answer's warnings first (text on
        stderr, as plain nbgrader shows them), then the verdict. A correct answer's warnings are not
        shown, as its self-check shows none: a warning under "Correct" reads as a mistake (a
        `return float(loss)` warns that a tensor requiring grad became a number). A kernel's field that
        could not be read is still said, under a passing verdict on stdout: nbgrader scores any stderr
        in a graded cell 0, and the score is the verdict's."""
        passed = self.result.passed
        text = self.warned.text(warnings=not passed)
        if not text:
            return [self.output()]
        return [nbformat.v4.new_output("stream", name="stdout" if passed else "stderr", text=text), self.output()]

    def output(self) -> NotebookNode:
        """The verdict's output: correct, or the mistake and the seed that replays it."""
        result, name = self.result, self.exercise.name
        if result.passed:
            text = f"Correct: `{name}` matches PyTorch on {len(self.seeds)} fresh random inputs."
            return nbformat.v4.new_output("display_data", data={
                "text/plain": text, "text/html": f'<div style="color:#1b7837">{html.escape(text)}</div>'})
        where = f"\n(graded on fresh random inputs; seed {self.seed})" if result.outcome != LIMIT else ""
        return error_output(ENAMES.get(result.outcome, "Incorrect"), result.message + where)

    def metadata(self, seconds: float) -> dict:
        """What the report reads of the graded cell (``metadata["autograd_course"]``)."""
        return {"exercise": self.exercise.name, "outcome": self.result.outcome, "kind": self.result.kind,
                "message": self.result.message.split("\n")[0], "seed": self.seed, "seconds": round(seconds, 3)}
