"""The executing step's parts alone, without a kernel: the output caps, the limits, an exercise's trials
(and the warnings sent beside them).

What they do inside a real grading run is what tests/test_hostile_corpus.py and tests/test_sandbox.py
prove; here each part's rules are read off directly.
"""
import asyncio
import logging
import time
from types import SimpleNamespace

import nbformat
import pytest
import torch

from course.checks.answer_warnings import MIME as WARNINGS_MIME, Warned
from course.checks.observation import MIME
from course.exercise import exercises_of
from course.outcome import CORRECT, INCORRECT, Verdict
from autograder.grading.judging import limits, trials
from autograder.grading.judging.output_caps import OutputCaps, message_size
from autograder.grading.judging.trusted_execute import TrustedExecute, plain_execution_count

LOG = logging.getLogger("test")


def caps(cell_limit=100, notebook_limit=250):
    interrupts = []
    return OutputCaps(cell_limit, notebook_limit, lambda: interrupts.append(1), LOG), interrupts


def test_a_cell_past_its_cap_is_interrupted_once_per_further_caps_worth():
    counted, interrupts = caps()
    counted.count(60, 0)
    assert not counted.overflow and interrupts == []
    counted.count(60, 0)
    assert "output limit of 100 bytes" in counted.overflow and len(interrupts) == 1
    counted.count(60, 0)                     # still within a cap's worth of the interrupt
    assert len(interrupts) == 1
    counted.count(60, 0)                     # a cell that caught the interrupt and keeps sending
    assert len(interrupts) == 2
    assert counted.notebook_bytes == 120     # past the cell's cap, nothing more counts toward the notebook's
    counted.new_cell()
    assert counted.overflow == "" and counted.cell_bytes == 0


def test_the_notebooks_cap_floods_every_cell_after_it():
    counted, interrupts = caps(cell_limit=1000)
    for _ in range(3):
        counted.new_cell()
        counted.count(90, 0)
    assert "the notebook sent more than its output limit of 250 bytes" == counted.flooded == counted.overflow
    counted.new_cell()
    assert counted.overflow == counted.flooded and interrupts == [1]


def test_a_message_too_large_to_decode_counts_toward_its_cell_only():
    counted, _ = caps()
    counted.count(90, 0, kept=False)
    assert (counted.cell_bytes, counted.notebook_bytes) == (90, 0)


def test_only_the_kernels_status_is_read_past_a_cap_and_comms_never():
    counted, _ = caps()
    stream = {"msg_type": "stream", "content": {"text": "x"}}
    assert not counted.unread(stream) and counted.unread({"msg_type": "comm_msg"})
    assert counted.unread({"msg_type": "stream", "oversized": True})
    counted.count(101, 0)
    assert counted.unread(stream) and not counted.unread({"msg_type": "status"})
    assert message_size({"wire_bytes": 7, "content": {"text": "long"}}) == 7
    assert message_size(stream) == len('{"text": "x"}')


def test_a_deadline_caps_each_cells_timeout():
    deadline = limits.Deadline(900)
    assert deadline.cell_timeout(120) == 120 and 850 < deadline.cell_timeout(None) <= 901
    passed = limits.Deadline(-5)
    assert passed.remaining() < 0 and passed.cell_timeout(120) == 1
    assert passed.why() == "the notebook ran past its time limit of -5 s"


def test_the_graders_own_work_between_cells_does_not_run_down_the_deadline():
    deadline = limits.Deadline(10)
    with deadline.paused():
        time.sleep(0.3)  # drawing the cell's pictures, say
    assert deadline.remaining() > 9.9


def test_only_a_kernel_interrupted_at_its_time_limit_is_stuck_when_its_last_messages_do_not_come():
    """One that replied has run its cell: its idle status may be among what its full queue dropped."""
    executor = TrustedExecute(km=SimpleNamespace(interrupt_kernel=lambda: None))
    executor._interrupted_at_limit = False
    assert not executor.raise_on_iopub_timeout
    asyncio.run(executor._async_handle_timeout(20, None))
    assert executor.raise_on_iopub_timeout


@pytest.mark.parametrize("count", ['<img src=x onerror="alert(1)">', "7", 7.0, True, -1, 2**40, [1]])
def test_an_execution_count_a_kernel_sent_is_a_whole_number_or_none(count):
    msg = {"msg_type": "execute_input", "content": {"code": "", "execution_count": count}}
    plain_execution_count(msg)
    assert msg["content"]["execution_count"] is None
    msg = {"msg_type": "execute_result", "content": {"execution_count": 12, "data": {}, "metadata": {}}}
    plain_execution_count(msg)
    assert msg["content"]["execution_count"] == 12


def kernel(breaches=(), cut="", peak=0):
    return SimpleNamespace(breaches=lambda: list(breaches), cut=cut, peak_memory=lambda: peak,
                           fence=SimpleNamespace(memory=2 * 1024**3, max_processes=256))


def test_a_breach_and_a_cut_are_said_as_why_a_cell_stopped():
    assert limits.breach(kernel()) == "" and limits.breach(None) == ""
    assert limits.breach(kernel(["memory"])) == "it went past the memory limit of 2 GiB (its processes together)"
    assert "more than the 256 processes" in limits.breach(kernel(["processes"]))
    client = SimpleNamespace(max_part=64)
    assert limits.cut(kernel(), client) == ""
    assert limits.cut(kernel(cut="iopub"), client).startswith("it printed more than the output limit in one message")
    assert "on its shell channel and the grader cut" in limits.cut(kernel(cut="shell"), client)
    assert limits.why_it_died(kernel(), client, True, "died") == "died"
    assert limits.why_it_died(kernel(cut="shell"), client, False, "died") == "the grader stopped this cell"
    assert limits.why_it_died(kernel(cut="shell"), client, True, "died").startswith("this cell was stopped: it sent")


def test_a_kernel_that_died_holding_much_of_its_cap_is_said_to_have_run_out_of_memory():
    """With the per-process cap, an allocation failing outside Python's reach kills the kernel and no OOM
    kill is counted: what its group held at its peak tells that death from a crash."""
    client = SimpleNamespace(max_part=64)
    assert limits.why_it_died(kernel(peak=200 * 2**20), client, False, "died") == "died"
    said = limits.why_it_died(kernel(peak=700 * 2**20), client, False, "died")
    assert said == ("the kernel died while running this cell holding 0.7 GiB: it most likely went past the "
                    "memory limit of 2 GiB")
    assert limits.why_it_died(kernel(peak=700 * 2**20, cut="iopub"), client, False, "died") == "the grader stopped this cell"


def test_a_cell_that_ran_out_of_memory_says_so():
    cell = nbformat.v4.new_code_cell("x", outputs=[nbformat.v4.new_output("error", ename="RuntimeError",
                                                                        evalue="std::bad_alloc", traceback=[])])
    assert limits.out_of_memory(cell, kernel()) == "it went past the memory limit of 2 GiB"
    assert limits.out_of_memory(nbformat.v4.new_code_cell("x"), kernel()) == ""


@pytest.fixture
def exercise():
    return next(iter(exercises_of("backward").values()))


def test_only_a_graded_test_cell_of_a_known_exercise_is_judged_here(exercise):
    meta = {"grade": True, "solution": False, "grade_id": f"test_{exercise.name}"}
    graded = nbformat.v4.new_code_cell("check()", metadata={"nbgrader": meta})
    assert trials.graded_exercise(graded, exercise.lesson) is exercise
    assert trials.graded_exercise(graded, "") is None
    assert trials.graded_exercise(nbformat.v4.new_code_cell("x", metadata={"nbgrader": dict(meta, solution=True)}),
                                  exercise.lesson) is None
    unknown = nbformat.v4.new_code_cell("x", metadata={"nbgrader": dict(meta, grade_id="test_no_such_exercise")})
    assert trials.graded_exercise(unknown, exercise.lesson) is None


def test_the_request_asks_for_every_seed_and_its_reply_is_read_in_order(exercise):
    request = trials.request_cell(exercise, [1, 2])
    assert f"respond_each({exercise.lesson!r}, {exercise.name!r}, [1, 2])" in request.source
    request.outputs = [nbformat.v4.new_output("display_data", data={MIME: "first"}),
                       nbformat.v4.new_output("display_data", data={"text/plain": "printed"}),
                       nbformat.v4.new_output("display_data", data={MIME: "second"})]
    assert trials.observations(request) == ["first", "second"]
    assert not trials.timed_out(request, {"ename": "CellTimeoutError"})
    request.outputs.append(nbformat.v4.new_output("error", ename="CellTimeoutError", evalue="", traceback=[]))
    assert trials.timed_out(request, {"ename": "CellTimeoutError"})


def test_a_trial_the_kernel_stopped_before_gets_its_reason_and_the_seed_it_was_reached_on(exercise):
    tried = trials.Trials(exercise, [11, 12, 13])
    stopped = Verdict(trials.LIMIT, "`x` stopped: a reason.", "limit")
    tried.judge([], stopped)
    assert tried.result is stopped and tried.seed == 11
    assert tried.output().ename == "KernelDied" and "seed" not in tried.output().evalue  # a limit is no input's fault
    tried.judge([], None)
    assert tried.result.outcome == INCORRECT and tried.result.kind == "no_result"
    assert tried.output().evalue.endswith("(graded on fresh random inputs; seed 11)")
    assert tried.metadata(1.23456) == {"exercise": exercise.name, "outcome": INCORRECT, "kind": "no_result",
                                       "message": tried.result.message.split("\n")[0], "seed": 11, "seconds": 1.235}


def test_a_passing_verdict_shows_as_correct_on_every_input(exercise):
    tried = trials.Trials(exercise, [1, 2, 3])
    assert tried.result.outcome == CORRECT and tried.seed is None
    shown = tried.output()
    assert shown.output_type == "display_data"
    assert shown.data["text/plain"] == f"Correct: `{exercise.name}` matches PyTorch on 3 fresh random inputs."


def test_a_graded_exercises_trials_always_include_float64_inputs():
    """An answer that rounds through float32 is right on float32 inputs: were every trial float32 (one
    notebook in eight, drawn freely), it would score full marks. So one trial at least is float64."""
    from autograder.grading.judging.verdict import _float_dtypes, seeds, with_float64
    from course.exercise import exercises_of, lesson_module
    exercise = exercises_of(lesson_module("02_backward"))["grads_with_intermediate"]  # one dtype per trial
    float32_only = [s for s in range(200) if _float_dtypes(exercise, s) == {torch.float32}][:3]
    assert len(float32_only) == 3
    chosen = with_float64(exercise, float32_only)
    assert chosen[:2] == float32_only[:2] and torch.float64 in _float_dtypes(exercise, chosen[2])
    for _ in range(20):
        assert any(torch.float64 in _float_dtypes(exercise, s) for s in seeds(3, exercise=exercise))
    assert seeds(3, pinned=7)[0] == 7 and seeds(3, pinned=7, exercise=exercise)[0] == 7


def _warned_request(*sent):
    request = nbformat.v4.new_code_cell("")
    request.outputs = [nbformat.v4.new_output("display_data", data=data) for data in sent]
    return request


def test_the_warnings_sent_beside_the_trials_are_read_once_each_and_only_theirs():
    said = Warned(said=[("UserWarning", "a")]).dumps()
    request = _warned_request({MIME: "1", WARNINGS_MIME: said},
                              {"text/plain": "x", WARNINGS_MIME: Warned(said=[("UserWarning", "printed")]).dumps()},
                              {MIME: "2", WARNINGS_MIME: said},
                              {MIME: "3"},
                              {MIME: "past the trials", WARNINGS_MIME: Warned(said=[("UserWarning", "late")]).dumps()})
    assert trials.warnings_sent(request, 3) == Warned(said=[("UserWarning", "a")])
    broken = trials.warnings_sent(_warned_request({MIME: "1", WARNINGS_MIME: "[" * 5000}), 3)
    assert broken.said == [] and "could not be read: it is not JSON" in broken.text()


def _graded_cell(outputs):
    meta = {"grade": True, "solution": False, "locked": True, "points": 1, "grade_id": "test_x"}
    cell = nbformat.v4.new_code_cell("", metadata={"nbgrader": meta})
    cell.outputs = outputs
    return cell


def test_warnings_come_before_a_failing_verdict_as_text_and_a_correct_answer_shows_none(exercise):
    """On stderr, as plain nbgrader shows them, under a verdict that fails; none under one that passes,
    as the self-check shows none for a correct answer (a warning there reads as a mistake)."""
    from nbgrader.utils import determine_grade
    tried = trials.Trials(exercise, [1, 2, 3])
    assert tried.outputs() == [tried.output()]  # no warnings: the verdict alone
    tried.warned = Warned(said=[("UserWarning", "<b>not markup</b>")])
    passed = tried.outputs()
    assert passed == [tried.output()] and determine_grade(_graded_cell(passed)) == (1, 1)
    tried.warned.unreadable = "it is not JSON"  # a kernel's field that could not be read is said, on stdout
    noted = tried.outputs()
    assert [(o.output_type, o.get("name")) for o in noted] == [("stream", "stdout"), ("display_data", None)]
    assert noted[0].text == "(the warnings sent back with this answer could not be read: it is not JSON)\n"
    assert determine_grade(_graded_cell(noted)) == (1, 1)
    tried.warned.unreadable = ""
    tried.judge([], None)
    failed = tried.outputs()
    assert [o.output_type for o in failed] == ["stream", "error"] and failed[0].name == "stderr"
    assert failed[0].text == "UserWarning: <b>not markup</b>\n"
    assert determine_grade(_graded_cell(failed)) == (0, 1)
