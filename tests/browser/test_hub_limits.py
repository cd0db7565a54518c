"""A class hub's limits as a student meets them: a memory cap per user, and an idle server stopped.

`make hub` brings up a hub (tests/browser/class_hub.py) whose settings give each user 1 GiB of
memory and stop a server after 60 s without activity. A student logs in with Chromium, opens a
notebook and asks for 1.5 GiB: the kernel dies, as JupyterLab tells them, and their server lives
on in its control group, which caps swap too (a machine with swap must not let the kernel swap past
its cap). They type more and choose Log Out at once: the browser asks before leaving
the page, and their text stays. They close the browser; the idle culler then stops their server.
"""
import os
import pwd
import re
import time

import pytest

from autograder.grading.kernels import cgroups
from shared_student_env import shared_hub_prefix

from .chromium import launched, require_browser
from .class_hub import cannot_make_users, class_hub
from .hub_people import choose, log_in, shot

pytestmark = pytest.mark.browser
MEMORY = 1 << 30
SETTINGS = ("memory.limit_in_bytes", "memory.memsw.limit_in_bytes", "memory.swappiness",  # v1
            "memory.max", "memory.swap.max")  # v2

require_browser()
if cannot_make_users() and os.environ.get("CI") and os.geteuid() == 0:
    pytest.fail(f"the class hub test cannot run on CI: {cannot_make_users()}", pytrace=False)
if cannot_make_users():
    pytest.skip(f"the class hub test cannot run here: {cannot_make_users()}", allow_module_level=True)
if not cgroups.version():
    pytest.skip("no control groups on this machine: the memory cap per user cannot be enforced", allow_module_level=True)
from playwright.sync_api import expect  # noqa: E402


def servers_of(user: str) -> list[int]:
    """The user's single-user server processes."""
    uid = pwd.getpwnam(user).pw_uid
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if os.stat(f"/proc/{pid}").st_uid == uid:
                with open(f"/proc/{pid}/cmdline", "rb") as handle:
                    if b"jupyterhub-singleuser" in handle.read():
                        found.append(int(pid))
        except OSError:
            pass
    return found


def test_a_students_memory_is_capped_and_their_idle_server_stopped():
    with class_hub(shared_hub_prefix(), students=1, AUTOGRAD_HUB_MEMORY="1G",
                   AUTOGRAD_HUB_IDLE_TIMEOUT="60") as hub, launched() as browser:
        student, = hub.room.students
        page = log_in(browser, hub, student)
        server, = servers_of(student)
        with open(f"/proc/{server}/cgroup") as handle:
            assert f"hub-{student}" in handle.read()  # the server, and so all it starts, in the user's group
        folders = cgroups.paths(cgroups.version(), f"hub-{student}")
        limits = {name: open(os.path.join(f, name)).read().strip() for f in folders for name in SETTINGS
                  if os.path.exists(os.path.join(f, name))}
        if cgroups.version() == "v1":  # memory and swap together, or no swapping where swap is not counted
            assert limits["memory.limit_in_bytes"] == str(MEMORY), limits
            assert limits.get("memory.memsw.limit_in_bytes") == str(MEMORY) or limits["memory.swappiness"] == "0"
        else:
            assert (limits["memory.max"], limits["memory.swap.max"]) == (str(MEMORY), "0"), limits

        choose(page, "File", "New Launcher")
        page.locator(".jp-LauncherCard[data-category='Notebook']").first.click()
        cell = page.locator(".jp-NotebookPanel:visible .jp-Cell .cm-content").first
        # The status bar's "Idle": the notebook's kernel is connected. (The toolbar's circle shows idle before
        # that, and JupyterLab drops a cell run while its kernel is not yet connected: [ ], nothing sent.)
        expect(page.locator(".jp-StatusBar-TextItem", has_text=re.compile(r"\| Idle$"))).to_be_visible(timeout=120_000)
        cell.click()
        page.keyboard.type("hoard = b'x' * (3 * 2**29)  # 1.5 GiB")
        expect(cell).to_contain_text("hoard = b'x' * (3 * 2**29)")  # all of it typed, before it runs
        page.keyboard.press("Shift+Enter")
        try:
            expect(page.get_by_text("appears to have died")).to_be_visible(timeout=180_000)
        except AssertionError:
            shot(page, "limits-failed-kernel")
            raise AssertionError("no word that the kernel died; the hub's log:\n" + hub.log(30_000)) from None
        shot(page, "limits-1-kernel-died")
        assert cgroups.breaches(folders)["memory"] >= 1
        assert servers_of(student) == [server]  # the server lives on; only the kernel was killed

        page.locator(".jp-Dialog").get_by_role("button", name="Ok").click()
        page.locator(".jp-NotebookPanel:visible .jp-Cell .cm-content").last.click()
        page.keyboard.type("unsaved = 'work'")  # then straight to File > Log Out, before any autosave
        asked = []
        page.on("dialog", lambda dialog: (asked.append(dialog.type), dialog.dismiss()))
        choose(page, "File", "Log Out")
        expect(page.get_by_text("unsaved = 'work'")).to_be_visible()
        assert asked == ["beforeunload"], asked  # "Leave site? Changes you made may not be saved"; they stayed
        shot(page, "limits-2-logout-asked")
        page.context.close()

        deadline = time.monotonic() + 600  # a bound, not a speed: the culler looks every 15 s here
        while servers_of(student) and time.monotonic() < deadline:
            time.sleep(5)
        assert not servers_of(student), f"the idle server was not stopped; the hub's log:\n{hub.log()}"
        assert "idle-culler" in hub.log(20_000)
