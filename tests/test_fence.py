"""The fence's parts, one by one: declared once, a uid per kernel, bounded decoding, a grader that never falls over.

Kernels themselves are tested in test_sandbox.py (cold and warm) and, graded in a parallel batch
next to classmates, in test_hostile_corpus.py.
"""

import pytest
from traitlets.config import Config

from autograder.grading.kernels import uids
from autograder.grading.kernels.fence import Box, Fence
from autograder.grading.kernels.manager import BoundedSession
from autograder.grading.kernels.settings import GradingKernels
from autograder.grading.judging.trusted_execute import TrustedExecute
from autograder.grading.judging.verdict import judge_sent
from course.checks.observation import MAX_TEXT, Unreadable, dumps, loads
from course.exercise import exercises_of


def fence_of(settings: dict):
    return GradingKernels.of(Config({"GradingKernels": settings})).fence()


def test_the_fence_is_built_once_from_the_settings_whatever_reads_them():
    """The grade command (from the configuration) and TrustedExecute (from its config) build the same
    fence, so a batch's zygote and its workers' kernels agree; each setting is declared once."""
    executor = TrustedExecute()
    defaults = GradingKernels().values()
    assert fence_of({}) == executor.kernels.fence() == fence_of({"memory_limit": defaults["memory_limit"]})
    assert fence_of({"memory_limit": 2**30}) != fence_of({})
    fence = fence_of({"memory_limit": 2**30, "environment": ["PATH"]})
    assert fence.memory == 2**30 and fence.environment == ("PATH",) and fence.network is False
    assert Fence.from_json(fence.to_json()) == fence
    config = Config({"GradingKernels": {"max_processes": 64}})
    assert TrustedExecute(config=config).kernels.fence() == fence_of({"max_processes": 64})
    assert not any(name in TrustedExecute.class_trait_names() for name in defaults), "declared twice"


def test_a_kernel_manager_without_its_fence_is_refused():
    from autograder.grading.kernels.manager import SandboxedKernelManager
    with pytest.raises(ValueError, match="needs its fence"):
        SandboxedKernelManager(kernel_name="python3")


def test_a_kernels_environment_is_the_allowlist_and_its_own_folders():
    fence = fence_of({"environment": ["PATH"]})
    box = Box(60001, "/tmp/sockets", "/tmp/work")
    env = fence.environment_for(box, {"PATH": "/usr/bin", "AWS_SECRET": "x", "JUPYTER_TOKEN": "y"})
    assert env["PATH"] == "/usr/bin" and env["HOME"] == "/tmp/work"
    assert "AWS_SECRET" not in env and "JUPYTER_TOKEN" not in env


def test_each_live_kernel_gets_a_uid_of_its_own(tmp_path, monkeypatch):
    monkeypatch.setattr(uids, "FOLDER", str(tmp_path))
    taken = [uids.take(61000, 3) for _ in range(3)]
    assert len({uid for uid, _ in taken}) == 3
    with pytest.raises(uids.NoFreeUid):
        uids.take(61000, 3)
    uids.give_back(taken[1][1])
    assert uids.take(61000, 3)[0] == taken[1][0]


@pytest.mark.parametrize("text", ['{"a": 1' + "0" * 5000 + "}", "[" * 100_000 + "]" * 100_000, "x" * (MAX_TEXT + 1),
                                  '{"__tensor__": "torch.float32", "shape": [1e400]}', b"\xff\xfe", 5])
def test_what_a_kernel_sends_is_size_checked_and_never_crashes_the_decoder(text):
    with pytest.raises(Unreadable):
        loads(text)


def test_a_judge_that_fails_on_what_was_sent_gives_an_unreadable_verdict(monkeypatch):
    exercise = exercises_of("backward")["vjp"]
    seen = dumps(exercise.observe(lambda f, x, v: v, 3))

    def overflows(*_):
        raise OverflowError("int too large to convert to float")

    monkeypatch.setattr(type(exercise), "verdict", lambda self, *a: overflows())
    result = judge_sent(exercise, 3, seen)
    assert result.kind == "unreadable" and "OverflowError" in result.message


def test_a_message_too_large_is_measured_not_decoded():
    session = BoundedSession(key=b"k", max_content=1000)
    small = session.serialize(session.msg("stream", {"text": "hi"}))
    large = session.serialize(session.msg("stream", {"text": "x" * 5000}))
    for frames, oversized in ((small, False), (large, True)):
        message = session.deserialize(frames[1:])
        assert bool(message.get("oversized")) == oversized
        assert message["wire_bytes"] >= sum(len(f) for f in frames[5:])
        assert message["content"] == ({} if oversized else {"text": "hi"})
