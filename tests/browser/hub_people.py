"""What the hub tests do as a person at the hub: log in, open a tab or a terminal, type, click.

Every step is the one a person takes in Chromium: the login page, JupyterLab's menus, its terminal
(a login shell, as JupyterLab opens it) read as text (the hub's JupyterLab renders terminals as DOM,
for screen readers and so for these tests).
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


class Terminal:
    """A JupyterLab terminal, opened from File > New > Terminal; commands typed, their output read."""

    def __init__(self, page):
        self.page = page
        choose(page, "File", "New", "Terminal")
        self.screen = page.locator(".jp-Terminal .xterm-rows").last
        self.screen.wait_for()
        self._wait_for_prompt(60_000)

    def lines(self) -> list[str]:
        text = self.screen.inner_text().replace("\xa0", " ")
        return [line.rstrip() for line in text.splitlines() if line.strip()]

    def _wait_for_prompt(self, timeout: float) -> None:
        self.page.wait_for_function(
            """([rows, prompt]) => {
                const lines = rows.innerText.replace(/\\u00a0/g, " ").split("\\n").map(l => l.trimEnd()).filter(l => l);
                return lines.length && new RegExp(prompt).test(lines[lines.length - 1]);
            }""", arg=[self.screen.element_handle(), PROMPT.pattern], timeout=timeout, polling=500)

    def run(self, command: str, timeout: float = 900_000) -> str:
        """Types ``command`` and Enter, waits for the next prompt: the lines shown after the command."""
        self.screen.click()
        self.page.keyboard.type(command)
        tail = command[-20:]
        self.page.wait_for_function("([rows, tail]) => rows.innerText.replace(/\\u00a0/g, ' ').includes(tail)",
                                    arg=[self.screen.element_handle(), tail], timeout=30_000, polling=200)
        self.page.keyboard.press("Enter")
        self.page.wait_for_function(
            """([rows, prompt, tail]) => {
                const lines = rows.innerText.replace(/\\u00a0/g, " ").split("\\n").map(l => l.trimEnd()).filter(l => l);
                const last = lines[lines.length - 1] || "";
                return new RegExp(prompt).test(last) && !last.endsWith(tail);
            }""", arg=[self.screen.element_handle(), PROMPT.pattern, tail], timeout=timeout, polling=1000)
        lines = self.lines()
        echoed = max((i for i, line in enumerate(lines) if line.endswith(tail)), default=-1)
        return "\n".join(lines[echoed + 1:-1])
