"""What the hub tests do as a person at the hub: log in, open a tab or a terminal, type, click.

Every step is the one a person takes in Chromium: the login page, JupyterLab's menus, its terminal
(a login shell, as JupyterLab opens it) read as text (the hub's JupyterLab turns on its terminals' screen reader mode, whose text
a page holds, for screen readers and so for these tests).
"""
import os
import re

from conftest import ROOT

SHOTS = os.path.join(ROOT, "test-artifacts", "hub")
PROMPT = re.compile(r"\S+@\S+:.*\$$")  # bash's prompt on Debian (/etc/skel/.bashrc), waiting for a command


def shot(page, name: str) -> None:
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def log_in(browser, hub, user: str):
    """A person's own browser: the hub's login page, their password, their JupyterLab."""
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    page.set_default_timeout(120_000)
    page.goto(f"{hub.url}hub/login")
    page.fill("#username_input", user)
    page.fill("#password_input", hub.passwords[user])
    page.click("#login_submit")
    try:  # the hub spawns the server first (its start_timeout is 120 s)
        page.wait_for_url(re.compile(rf"/user/{user}/lab"), wait_until="commit", timeout=240_000)
        menu(page, "File").wait_for()
    except Exception:
        shot(page, f"failed-login-{user}")
        raise AssertionError(f"{user} never reached their JupyterLab (at {page.url}); the hub's log:\n"
                             + hub.log()) from None
    return page


def menu(page, name: str):
    return page.locator("#jp-MainMenu .lm-MenuBar-itemLabel", has_text=re.compile(rf"^{name}$"))


def choose(page, *path: str) -> None:
    """A menu bar item, then each item of its submenus, by their labels."""
    menu(page, path[0]).click()
    for label in path[1:]:
        page.locator(".lm-Menu:visible .lm-Menu-itemLabel", has_text=re.compile(rf"^{re.escape(label)}$")).last.click()


_ROWS = "tree => Array.from(tree.children).map(row => row.textContent.replace(/\\u00a0/g, ' ').trimEnd()).filter(r => r)"


class Terminal:
    """A JupyterLab terminal, opened from File > New > Terminal; commands typed, their output read."""

    def __init__(self, page):
        self.page = page
        choose(page, "File", "New", "Terminal")
        opened = page.locator(".jp-Terminal:visible").last  # the tab just opened, in front
        opened.wait_for()
        widget = opened.evaluate("e => e.closest('.jp-MainAreaWidget').id")  # its tab's, in JupyterLab's main area
        self.tab = page.locator(f"li.lm-TabBar-tab[data-id='{widget}']")
        terminal = page.locator(f"[id='{widget}'] .jp-Terminal")
        self.body = terminal.locator(".xterm-screen")
        self.rows = terminal.locator(".xterm-accessibility-tree")  # what a screen reader reads
        self.rows.wait_for(state="attached")
        self._wait(f"rows => new RegExp({PROMPT.pattern!r}).test(({_ROWS})(rows).pop() || '')", 60_000)

    def lines(self) -> list[str]:
        return self.rows.evaluate(_ROWS)

    def _wait(self, condition: str, timeout: float, arg=None) -> None:
        self.page.wait_for_function(f"([rows, arg]) => ({condition})(rows, arg)",
                                    arg=[self.rows.element_handle(), arg], timeout=timeout, polling=500)

    def run(self, command: str, timeout: float = 900_000) -> str:
        """Types ``command`` and Enter, waits for the next prompt: the lines shown after the command."""
        self.tab.click()  # its tab in front again, as a person would click it
        try:
            self.body.wait_for(state="visible", timeout=30_000)
        except Exception:  # the tab's panel stayed hidden (a layout restored late): as a person would, a new one
            os.makedirs(SHOTS, exist_ok=True)
            self.page.screenshot(path=os.path.join(SHOTS, "terminal-hidden.png"), full_page=True)
            print(f"the terminal's panel stayed hidden after its tab was clicked; opening another "
                  f"(screenshot terminal-hidden.png)")
            self.__init__(self.page)
        for attempt in range(3):  # keys typed while xterm takes the focus can be lost: then the line again
            self.body.click()
            self.page.keyboard.type(command)
            try:
                self._wait(f"(rows, command) => (({_ROWS})(rows).pop() || '').endsWith(command)", 15_000, command)
                break
            except Exception:
                if attempt == 2:
                    raise AssertionError(f"the terminal never showed {command!r}: {self.lines()[-5:]}") from None
                self.page.keyboard.press("Control+U")
        self.page.keyboard.press("Enter")
        self._wait(f"(rows, command) => {{ const last = ({_ROWS})(rows).pop() || '';"
                   f" return new RegExp({PROMPT.pattern!r}).test(last) && !last.endsWith(command); }}", timeout, command)
        lines = self.lines()
        echoed = max((i for i, line in enumerate(lines) if line.endswith(command)), default=-1)
        return "\n".join(lines[echoed + 1:-1])
