"""How grading kernels start: the manager chooses a provisioner (cold, or forked from the zygote), whose
``pre_launch`` makes the box's control group and whose ``cleanup`` removes it; the zygote warms every
lesson the student package holds, found rather than listed.

Kernels running fenced in are tested in test_sandbox.py; restarts in test_resilient_execute.py.
"""
import asyncio
import json
import os
import subprocess
import sys

import nbformat
from traitlets.config import Config

from autograder.grading.kernels import cold, preloads
from autograder.grading.kernels.factory import KernelFactory
from autograder.grading.kernels.manager import SandboxedKernelManager
from autograder.grading.kernels.provisioners import ColdProvisioner, WarmProvisioner
from autograder.grading.kernels.settings import GradingKernels
from conftest import ROOT


def prepared(factory=None, kernel_name="python3"):
    """A manager and its provisioner's command after ``pre_launch``, its kernel not launched."""
    fence = GradingKernels.of(Config()).fence()
    km = SandboxedKernelManager(kernel_name=kernel_name, fence=fence, factory=factory)

    async def prepare():
        command, _ = await km._async_pre_start_kernel()
        return command
    return km, asyncio.run(prepare())


def cleaned_up(km):
    asyncio.run(km._async_cleanup_resources())


def test_a_cold_start_is_the_cold_provisioners_and_its_group_lives_from_pre_launch_to_cleanup():
    km, command = prepared()
    try:
        assert type(km.provisioner) is ColdProvisioner
        assert command[1:3] == ["-m", cold.__name__] and "ipykernel_launcher" in command[command.index("--"):]
        assert km.box.to_json() in command  # the kernel enters this manager's box
        assert all(os.path.isdir(group) for group in km.box.cgroups)  # made before the kernel exists
        assert km.provisioner.breaches() == []
    finally:
        cleaned_up(km)
    assert not any(os.path.exists(group) for group in km.box.cgroups)
    assert not os.path.exists(km.socket_dir)


def test_a_warm_start_asks_the_zygote_in_the_same_box(tmp_path):
    factory = KernelFactory(GradingKernels.of(Config()).fence(), str(tmp_path), os.getpid(), 1.0)  # never asked
    km, command = prepared(factory)
    try:
        assert type(km.provisioner) is WarmProvisioner and km.provisioner.factory is factory
        request = factory.request(command[command.index("ipykernel_launcher") + 1:], km.box)
        assert request["box"] == km.box.to_json() and request["fence"] == km.fence.to_json()
        assert request["arguments"][:1] == ["-f"]  # the kernel's own arguments, for the zygote's fork
        assert all(os.path.isdir(group) for group in km.box.cgroups)
    finally:
        cleaned_up(km)
    assert not any(os.path.exists(group) for group in km.box.cgroups)


def test_a_restart_keeps_the_provisioner_and_the_box_but_not_the_groups_counters():
    km, _ = prepared()
    try:
        provisioner, box = km.provisioner, km.box
        asyncio.run(km._async_cleanup_resources(restart=True))
        assert not any(os.path.exists(group) for group in box.cgroups)  # what was left in it is gone
        asyncio.run(km._async_pre_start_kernel())
        assert km.provisioner is provisioner and km.box == box
        assert all(os.path.isdir(group) for group in box.cgroups)
    finally:
        cleaned_up(km)


def test_no_kernel_spec_names_a_grading_provisioner():
    """Chosen by the manager, so an environment without the package's entry points grades the same."""
    km, _ = prepared()
    try:
        assert "kernel_provisioner" not in km.kernel_spec.metadata
    finally:
        cleaned_up(km)


def test_the_lessons_are_found_in_the_student_package():
    found = preloads.lessons()
    assert set(found) == {"graph", "backward", "no_grad", "zero_grad"}
    assert set(found) <= {name.split(".")[-1] for name in preloads.student_modules("autograder.grading.judging.references")}
    warm = preloads.zygote_modules()
    assert {f"course.exercises.{lesson}" for lesson in found} <= set(warm)
    assert {"course.kernel_side", "course.visuals.draw_graph", "torch"} <= set(warm)


def test_a_new_lesson_is_warmed_without_a_line_changed(tmp_path):
    """A student package with a lesson the repository does not have: the zygote's list names it."""
    for folder in ("course", "course/exercises", "course/visuals"):
        os.makedirs(tmp_path / folder)
        (tmp_path / folder / "__init__.py").write_text("")
    (tmp_path / "course" / "exercises" / "jacobians.py").write_text("")
    (tmp_path / "course" / "visuals" / "jacobian_plot.py").write_text("")
    script = "import json; from autograder.grading.kernels import preloads; " \
             "print(json.dumps([preloads.lessons(), preloads.zygote_modules()]))"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), ROOT])}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, cwd=str(tmp_path))
    assert done.returncode == 0, done.stderr
    lessons, modules = json.loads(done.stdout)
    assert lessons == ["jacobians"]
    assert {"course.exercises.jacobians", "course.visuals.jacobian_plot"} <= set(modules)


def test_a_package_that_is_not_installed_has_nothing_to_warm():
    assert preloads.student_modules("nowhere_at_all") == []


WARMING = """import gc, json
from autograder.grading.kernels.preloads import warming
with warming():
    during = gc.isenabled()
    import email.mime.multipart  # something this interpreter had not imported
print(json.dumps([during, gc.isenabled(), gc.get_freeze_count()]))"""


def test_a_warm_parent_imports_with_the_collector_off_and_freezes_what_it_imported():
    done = subprocess.run([sys.executable, "-c", WARMING], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    during, after, frozen = json.loads(done.stdout)
    assert (during, after) == (False, True) and frozen > 1000


def test_a_warm_kernel_collects_its_own_garbage_and_never_its_parents(tmp_path):
    """Forked from the zygote (``preloads.warming``): the collector is on, the zygote's objects frozen."""
    from autograder.grading.judging.trusted_execute import TrustedExecute
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import gc; print(gc.isenabled(), gc.get_freeze_count() > 100_000)")])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    executor = TrustedExecute(timeout=120, config=Config({"GradingKernels": {"warm_kernels": True}}))
    nb, _ = executor.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    assert nb.cells[0].outputs[0]["text"] == "True True\n"


def test_a_warm_kernel_starts_without_walking_the_zygotes_modules_and_still_sees_them(tmp_path):
    """ipykernel's list of module files (for a debugger grading never uses) is not made, which in a
    fork would copy every page holding a module; the kernel's own ``sys.modules`` is whole."""
    from autograder.grading.judging.trusted_execute import TrustedExecute
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import sys, ipykernel.ipkernel\n"
        "print(get_ipython().kernel._kernel_modules, 'torch' in sys.modules, len(sys.modules) > 1000,\n"
        "      ipykernel.ipkernel.sys.version_info == sys.version_info)\n"
        "1 / 0")])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    executor = TrustedExecute(timeout=120, allow_errors=True, config=Config({"GradingKernels": {"warm_kernels": True}}))
    nb, _ = executor.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    printed, error = nb.cells[0].outputs
    assert printed["text"] == "[] True True True\n" and error["ename"] == "ZeroDivisionError"
