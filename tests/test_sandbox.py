"""Grading kernels, cold and warm, run fenced in; where the OS refuses, grading says so and goes on.

Each test executes a tiny notebook with TrustedExecute (no gradebook needed) and reads what its
cells could see from inside the kernel.
"""
import logging
import os
import shutil
import subprocess
import sys
import tempfile
import time

import nbformat
import psutil
import pytest
from traitlets.config import Config
from conftest import ROOT

from autograder.grading.judging import trusted_execute
from autograder.grading.kernels import fence, settings
from autograder.grading.kernels.fence import namespaces_refused as probe
from autograder.grading.judging.trusted_execute import TrustedExecute

LOOK = """import glob, os, socket
from ipykernel import get_connection_file
own = (os.getcwd(), os.path.dirname(get_connection_file()))
seen = {"uid": os.getuid(), "pid": os.getpid(), "repo": os.path.exists(%r), "course": os.path.isdir(%r),
        "tests": os.path.exists(%r), "opt": os.path.exists("/opt"), "procs": len([p for p in os.listdir("/proc") if p.isdigit()]),
        "others": [p for p in glob.glob("/tmp/autograd-*/**", recursive=True) if not p.startswith(own)
                   and not os.path.isdir(p)][:20],  # a few say enough; unboxed, a busy /tmp has thousands
        "cgroup": open("/proc/self/cgroup").read(), "secret": [k for k in os.environ if "SANDBOX_TEST_SECRET" in k],
        "scratch": os.statvfs(".").f_blocks * os.statvfs(".").f_frsize, "dev": sorted(os.listdir("/dev")),
        "sys": sorted(os.listdir("/sys")) if os.path.isdir("/sys") else [],
        "cgroups": glob.glob("/sys/fs/cgroup/*"), "readme": os.path.exists(%r)}
try:
    socket.create_connection(("127.0.0.1", 9), timeout=1); seen["net"] = "open"
except OSError as error:
    seen["net"] = type(error).__name__
print(seen)"""


def run(tmp_path, **settings):
    """What the kernel saw, with a sibling kernel's folder planted beside its own and a secret set."""
    sibling = tempfile.mkdtemp(prefix="autograd-kernel-sibling-")
    open(os.path.join(sibling, "kernel.json"), "w").close()
    os.environ["SANDBOX_TEST_SECRET"] = "hidden"
    try:
        return _run(tmp_path, **settings)
    finally:
        del os.environ["SANDBOX_TEST_SECRET"]
        shutil.rmtree(sibling)


def _run(tmp_path, **settings):
    repo = ROOT
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        LOOK % (os.path.join(repo, "autograder", "grading", "judging", "references"), os.path.join(repo, "course"),
                os.path.abspath(__file__), os.path.join(repo, "README.md")))])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    executor = TrustedExecute(timeout=120, config=Config({"GradingKernels": settings}))
    nb, _ = executor.preprocess(nb, {"metadata": {"path": str(tmp_path)}})
    return eval(nb.cells[0].outputs[0]["text"])  # our own test notebook's printed dict


STARTS_A_ZYGOTE = """import time
from autograder.grading.kernels.factory import KernelFactory
from autograder.grading.kernels.settings import GradingKernels
kernels = GradingKernels(sandbox=%r)
factory = KernelFactory.start(kernels.fence(), kernels.zygote_timeout)
factory.wait_ready()
print(factory.pid, factory.area, flush=True)
time.sleep(300)"""


fenced = pytest.mark.skipif(probe() is not None, reason=f"namespaces refused here: {probe()}")


@fenced
@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_a_grading_kernel_is_fenced_in(tmp_path, warm):
    seen = run(tmp_path, warm_kernels=warm)
    assert 60000 <= seen["uid"] < 61000 and seen["pid"] == 1  # a uid of its own, PID 1 of its own namespace
    assert not seen["repo"] and seen["course"]                 # references hidden, student package kept
    assert not seen["tests"] and not seen["opt"]               # an allowlist: the rest of the machine is absent
    assert seen["procs"] <= 3                                  # its own processes only
    assert seen["net"] in ("OSError", "ConnectionRefusedError") and seen["net"] != "open"
    assert seen["others"] == []                                # no sibling's folder, connection file, zygote socket
    assert f"box-{seen['uid']}" in seen["cgroup"]              # a control group of its own
    assert seen["secret"] == []                                # the environment is an allowlist
    assert seen["scratch"] <= settings.GradingKernels().scratch_size         # its folder is its private, capped tmpfs
    assert set(seen["dev"]) <= {"null", "zero", "full", "random", "urandom", "tty", "pts", "ptmx", "shm", "fd",
                                "stdin", "stdout", "stderr"}, seen["dev"]  # no fuse, disk or host terminal
    assert seen["sys"] == ["devices"] and seen["cgroups"] == []  # no other box's control group to read


@fenced
@pytest.mark.parametrize("warm", [False, True], ids=["cold", "warm"])
def test_the_instructor_package_is_hidden_inside_a_folder_kernels_keep(tmp_path, monkeypatch, warm):
    """A non-editable install puts autograder/ beside course/ in site-packages, which kernels keep:
    kept here is the whole repository, and its autograder/ must still be absent."""
    keep = settings.kept_paths() + (ROOT,)
    monkeypatch.setattr(settings, "kept_paths", lambda: keep)
    seen = run(tmp_path, warm_kernels=warm, scratch_size=settings.GradingKernels().scratch_size - 4096)  # a fence of its own
    assert seen["readme"] and seen["course"]  # the kept folder is there...
    assert not seen["repo"]                   # ...but not the grader's references in it


def test_refused_isolation_stops_grading_unless_allowed_by_name(tmp_path, monkeypatch, caplog):
    """Where no kernel can be boxed, nothing grades unboxed unless c.GradingKernels.allow_unboxed says so;
    allowed, grading goes on and says at start that the kernels are not boxed."""
    monkeypatch.setitem(fence._refused, "why", "a test says namespaces are refused")
    monkeypatch.setattr(settings, "_built", {})
    monkeypatch.delitem(trusted_execute._warned, "said", raising=False)
    with pytest.raises(settings.Unboxed, match="Refusing to grade: kernels cannot be boxed here"):
        run(tmp_path, warm_kernels=False)
    with caplog.at_level(logging.WARNING):
        seen = run(tmp_path, warm_kernels=False, allow_unboxed=True)
    assert "NOT sandboxed (allowed by c.GradingKernels.allow_unboxed): namespaces (a test says namespaces are " \
           "refused)" in caplog.text
    assert seen["pid"] != 1  # ran, unfenced, with the rlimits only


def test_a_zygote_ends_with_the_process_that_started_it():
    """A grade command killed outright runs no clean-up; its warm parent must not outlive it."""
    starter = subprocess.Popen([sys.executable, "-c", STARTS_A_ZYGOTE % (probe() is None)], cwd=ROOT,
                               stdout=subprocess.PIPE, text=True)
    pid, area = starter.stdout.readline().split()
    zygote = psutil.Process(int(pid))
    assert zygote.is_running()
    starter.kill()
    starter.wait()
    psutil.wait_procs([zygote] + zygote.children(recursive=True), timeout=120)
    assert not zygote.is_running() or zygote.status() == psutil.STATUS_ZOMBIE
    for _ in range(100):  # and its folder (sockets, scratch, log) goes with it
        if not os.path.exists(area):
            break
        time.sleep(0.1)
    assert not os.path.exists(area), "the warm parent's folder was left behind"


def test_a_kernel_that_dies_holding_much_memory_is_said_to_have_run_out_of_it(tmp_path):
    """What the box's group held at its peak is read for a kernel that died without an OOM kill (as a
    failed allocation in a library's thread ends it); one that died holding little is a plain crash."""
    cells = ["import os\nheld = bytearray(600 * 2**20)\nos._exit(1)", "import os\nos._exit(1)"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(c) for c in cells])
    nb.metadata.kernelspec = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb, _ = TrustedExecute(timeout=120, config=Config({"GradingKernels": {}})).preprocess(
        nb, {"metadata": {"path": str(tmp_path)}})
    said = [" ".join(o.get("evalue", "") for o in cell.outputs) for cell in nb.cells]
    if settings.GradingKernels().fence().cgroups:
        assert "holding 0.6 GiB: it most likely went past the memory limit" in said[0], said[0]
    assert "the kernel died while running this cell (os._exit" in said[1], said[1]
