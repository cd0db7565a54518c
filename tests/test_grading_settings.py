"""Settings that were constants or environment variables are traits, set in nbgrader_config.py, and the
configured value is the one grading uses: how long the warm parent may take to serve, and the seed a
failure is replayed with."""
import subprocess
import sys
import textwrap

import nbformat
import pytest
from traitlets.config import Config

from autograder.course_dir import load_config
from autograder.grading.judging.trusted_execute import TrustedExecute
from autograder.grading.kernels.factory import KernelFactory
from autograder.grading.kernels.settings import GradingKernels
from conftest import ROOT


def test_the_course_config_sets_them_with_their_documented_defaults():
    config = load_config(ROOT)
    assert GradingKernels.of(config).zygote_timeout == GradingKernels.class_traits()["zygote_timeout"].default_value
    assert TrustedExecute(config=config).replay_seed is None
    for trait in (GradingKernels.class_traits()["zygote_timeout"], TrustedExecute.class_traits()["replay_seed"]):
        assert trait.metadata.get("config") and trait.help


def test_the_configured_zygote_timeout_is_the_wait_grading_allows(monkeypatch):
    """No warm parent imports torch within a hundredth of a second: grading stops, naming the setting."""
    monkeypatch.setattr(KernelFactory, "_shared", None)
    kernels = GradingKernels.of(Config({"GradingKernels": {"zygote_timeout": 0.01}}))
    with pytest.raises(RuntimeError, match=r"not serving within 0\.01 s \(GradingKernels\.zygote_timeout\)"):
        kernels.zygote()
    assert KernelFactory._shared is not None and not KernelFactory._shared.alive()  # closed, not left running
    monkeypatch.setattr(KernelFactory, "_shared", None)


def test_the_configured_replay_seed_is_the_first_trials_seed(tmp_path):
    """A wrong answer fails on its first trial: the seed it reports is the one configured."""
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_code_cell("def vjp(f, x, v):\n    return v", metadata={"nbgrader": {
            "grade": False, "solution": True, "grade_id": "answer_vjp", "schema_version": 3}}),
        nbformat.v4.new_code_cell("check.vjp(vjp)", metadata={"nbgrader": {
            "grade": True, "solution": False, "grade_id": "test_vjp", "points": 1, "schema_version": 3}})])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    config = Config({"TrustedExecute": {"replay_seed": 424242}, "GradingKernels": {"warm_kernels": False}})
    nb, _ = TrustedExecute(timeout=120, config=config).preprocess(
        nb, {"metadata": {"path": str(tmp_path)}, "nbgrader": {"assignment": "02_backward"}})
    graded = nb.cells[1].metadata["autograd_course"]
    assert graded["outcome"] != "correct" and graded["seed"] == 424242


def test_grade_starts_its_warm_parents_before_it_reads_the_hand_grades_then_yields_to_them(monkeypatch):
    """Their imports (torch, twice) are the start's longest path: they overlap the command's own,
    which runs at a lower priority from then on."""
    from autograder import cli
    from autograder.workflow import grade_command
    from autograder.grading.batch import planning, run
    from autograder.grading.batch.grading_progress import BatchReport
    from autograder.workflow.grades import hand_grades
    from autograder.workflow.records import status
    order, jobs = [], [("01_graph", "s1")]
    monkeypatch.setattr(planning, "plan", lambda *a: (list(jobs), []))
    monkeypatch.setattr(status, "unchanged_failures", lambda course, found, force: (found, []))
    monkeypatch.setattr(status, "record_batch", lambda *a: {})
    from autograder.workflow.grades import late_penalties
    monkeypatch.setattr(late_penalties, "settle", lambda root: 0)  # no gradebook here
    started = run.Started("", None, box="Kernels are boxed")
    monkeypatch.setattr(run, "start", lambda course, scheduler: order.append("warm parents") or started)
    monkeypatch.setattr(hand_grades, "before", lambda course, found: order.append("hand grades") or [])
    monkeypatch.setattr(hand_grades, "after", lambda *a: hand_grades.Kept())
    monkeypatch.setattr(run, "run", lambda *a: order.append(("batch", a[-1])) or BatchReport(graded=list(jobs)))
    monkeypatch.setattr(grade_command.os, "nice", lambda step: order.append(("nice", step)))
    assert cli.main(["--root", ROOT, "grade"], own_process=True) == 0  # as the console runs it
    assert order == ["warm parents", ("nice", grade_command.RECORDER_NICENESS), "hand grades", ("batch", started)]
    order.clear()
    assert cli.main(["--root", ROOT, "grade"]) == 0  # prove, a test: the caller keeps its priority
    assert order == ["warm parents", "hand grades", ("batch", started)]


def test_grade_starts_its_warm_parents_before_nbformat_or_the_other_commands_are_imported():
    """The command's imports up to its warm parents' start delay both of their chains (and each local
    worker imports the command's script again): nbformat (with jsonschema, a tenth of a second) is left
    to what reads notebooks, the other commands' modules to those commands."""
    code = textwrap.dedent(f"""
        import sys
        from autograder import cli
        from autograder.grading.batch import planning, run
        from autograder.workflow.records import status
        planning.plan = lambda *a: ([("01_graph", "s1")], [])
        status.unchanged_failures = lambda course, found, force: (found, [])
        def start(course, scheduler):
            print([m for m in ("nbformat", "jsonschema", "nbgrader", "sqlalchemy", "torch", "autograder.workflow.collect.download",
                               "autograder.workflow.grades.export", "autograder.workflow.pages.report") if m in sys.modules])
            raise SystemExit(0)
        run.start = start
        cli.main(["--root", {ROOT!r}, "grade"])
    """)
    shown = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert shown.splitlines()[-1] == "[]"


def test_by_default_a_batch_runs_one_worker_more_than_the_cores(monkeypatch):
    from autograder.grading.batch import settings
    monkeypatch.setattr(settings.os, "cpu_count", lambda: 16)
    assert settings.default_workers() == 17
    monkeypatch.setattr(settings.os, "cpu_count", lambda: None)  # unknown: one core
    assert settings.default_workers() == 2
