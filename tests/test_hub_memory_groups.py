"""A hub user's memory group on cgroup v1 and on v2, whichever this machine has.

The hub caps each user's server and kernels in a control group (hub/classroom_spawner.py over
autograder/grading/kernels/cgroups.py). Only one cgroup version runs on a machine, so these tests point
the same functions at a temporary folder laid out as /sys/fs/cgroup is in each version (with this
process's own group, as /proc/self/cgroup names it) and read what they wrote there. What a folder
cannot play, the kernel's own rules (a v2 group with processes cannot hand controllers down, the OOM
killer), is the real hub test's: tests/browser/test_hub_limits.py.
"""
import importlib.util
import logging
import os

import pytest

from autograder.grading.kernels import cgroups
from conftest import ROOT

_spec = importlib.util.spec_from_file_location("classroom_spawner", os.path.join(ROOT, "hub", "classroom_spawner.py"))
classroom_spawner = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(classroom_spawner)

GIB = 1 << 30
OWN = "system.slice/jupyterhub.service"  # where the hub runs


def _layout(tmp_path, monkeypatch, lines: str, folders: list[str]):
    root = tmp_path / "cgroup"
    for folder in folders:
        (root / folder).mkdir(parents=True)
        (root / folder / "cgroup.procs").write_text("")
    own = tmp_path / "self-cgroup"
    own.write_text(lines)
    monkeypatch.setattr(cgroups, "ROOT", str(root))
    monkeypatch.setattr(cgroups, "OWN_GROUPS", str(own))
    monkeypatch.setattr(os, "geteuid", lambda: 0)  # the hub is root; this folder is the test's own to write
    return root


@pytest.fixture
def cgroup_v2(tmp_path, monkeypatch):
    """One unified hierarchy; the hub in a service's group."""
    root = _layout(tmp_path, monkeypatch, f"0::/{OWN}\n", ["", OWN])
    (root / "cgroup.controllers").write_text("cpuset cpu io memory hugetlb pids rdma misc\n")
    for folder in ("", "system.slice", OWN):
        (root / folder / "cgroup.subtree_control").write_text("")
    return root


@pytest.fixture
def cgroup_v1(tmp_path, monkeypatch):
    """One hierarchy per controller; the hub in a group of the memory one only."""
    return _layout(tmp_path, monkeypatch, f"12:pids:/\n4:memory:/{OWN}\n2:cpu,cpuacct:/\n",
                   ["memory", f"memory/{OWN}", "pids", "cpu"])


def _read(path) -> str:
    return open(path).read().strip()


def test_on_v2_a_users_group_is_capped_in_memory_and_swap_under_the_hubs_own(cgroup_v2):
    assert cgroups.version() == "v2"
    folders = classroom_spawner.memory_group("ana", GIB, logging.getLogger("test"))
    group = cgroup_v2 / OWN / "autograd-course" / "hub-ana"
    assert folders == [str(group)]
    assert _read(group / "memory.max") == str(GIB)
    assert _read(group / "memory.swap.max") == "0"  # nothing swapped past the cap
    assert not (group / "pids.max").exists() and not (group / "cpu.max").exists()  # memory only, for a server
    for parent in (cgroup_v2 / OWN, cgroup_v2 / OWN / "autograd-course"):  # each hands the controllers down
        assert set(_read(parent / "cgroup.subtree_control").split()) == {"+memory", "+pids", "+cpu"}

    cgroups.join(folders)  # as the server's preexec does, as root, before the user's code runs
    assert _read(group / "cgroup.procs") == str(os.getpid())

    (group / "memory.events").write_text("low 0\nhigh 0\nmax 7\noom 1\noom_kill 1\n")
    assert cgroups.breaches(folders)["memory"] == 1  # what the kernel counts when it kills at the cap


def test_on_v2_a_stopped_server_has_its_whole_group_killed(cgroup_v2):
    folders = classroom_spawner.memory_group("ana", GIB, logging.getLogger("test"))
    cgroups.remove(folders, seconds=0)
    assert _read(os.path.join(folders[0], "cgroup.kill")) == "1"  # v2 ends every process in it at once


def test_on_v1_a_users_group_is_capped_in_memory_and_swap_in_the_memory_hierarchy(cgroup_v1):
    assert cgroups.version() == "v1"
    folders = classroom_spawner.memory_group("ana", GIB, logging.getLogger("test"))
    group = cgroup_v1 / "memory" / OWN / "autograd-course" / "hub-ana"
    assert folders == sorted([str(group), str(cgroup_v1 / "pids" / "autograd-course" / "hub-ana"),
                              str(cgroup_v1 / "cpu" / "autograd-course" / "hub-ana")])
    assert _read(group / "memory.limit_in_bytes") == str(GIB)
    assert _read(group / "memory.memsw.limit_in_bytes") == str(GIB)  # memory and swap together


def test_without_a_memory_setting_no_group_is_made(cgroup_v2):
    assert classroom_spawner.memory_group("ana", 0, logging.getLogger("test")) == []
    assert not (cgroup_v2 / OWN / "autograd-course").exists()


def test_without_control_groups_the_server_starts_uncapped_and_the_log_says_why(tmp_path, monkeypatch, caplog):
    _layout(tmp_path, monkeypatch, "0::/\n", [""])  # neither layout: no cgroup file system
    assert classroom_spawner.memory_group("ana", GIB, logging.getLogger("test")) == []
    assert "No memory limit for ana's server: memory, processes and CPU (no cgroup file system at" in caplog.text
