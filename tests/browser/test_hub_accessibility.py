"""The class hub's own pages, as a student opens them: the login page and the hub's home page pass axe.

The hub is brought up as an instructor would (`make hub` in a fresh clone, tests/browser/class_hub.py);
a student opens the login page, logs in with their password (to their JupyterLab), then opens the
hub's home page (/hub/home). axe's WCAG 2.1 A/AA rules run over both, none switched off; what
JupyterHub's own templates break would be counted apart by ``JUPYTERHUB`` and listed, with its
upstream issue, in docs/accessibility.md (nothing now: the hub's template mends the login page). Screenshots go to test-artifacts/accessibility/.
"""
import os

import pytest

from shared_student_env import shared_hub_prefix

from .axe_audit import audit, require_axe, said, violations
from .chromium import launched, require_browser
from .class_hub import cannot_make_users, class_hub
from .hub_people import log_in
from .test_accessibility import SHOTS

pytestmark = pytest.mark.browser
require_browser()
require_axe()
if cannot_make_users():
    pytest.skip(f"the class hub cannot run here: {cannot_make_users()}", allow_module_level=True)

# what JupyterHub's own templates break, by axe rule: CSS selectors of its elements (docs/accessibility.md)
JUPYTERHUB = {}  # none left: hub/templates/page.html mends the login page's colours (jupyterhub#4260)


@pytest.fixture(scope="module")
def hub():
    with class_hub(shared_hub_prefix(), students=1) as running:
        yield running


@pytest.fixture(scope="module")
def browser():
    with launched() as chromium:
        yield chromium


def _checked(page, name: str) -> list[dict]:
    """The page's screenshot; what JupyterHub's elements break (printed); the violations left over."""
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)
    theirs = {v["rule"]: v["upstream"] for v in audit(page, upstream=JUPYTERHUB) if v["upstream"]}
    print(f"{name}: elements of JupyterHub's templates that break a rule: {theirs}")
    found = violations(page, upstream=JUPYTERHUB)
    print(f"{name}: left over:\n{said(found)}")
    return found


def test_the_hubs_login_and_home_pages_pass_axe(hub, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.goto(f"{hub.url}hub/login")
        page.locator("#login_submit").wait_for()
        login = _checked(page, "hub-login")
    finally:
        context.close()
    page = log_in(browser, hub, hub.room.students[0])
    try:
        page.goto(f"{hub.url}hub/home")
        page.wait_for_load_state("load")
        home = _checked(page, "hub-home")
    finally:
        page.context.close()
    assert not login, f"the login page: WCAG 2.1 A/AA violations:\n{said(login)}"
    assert not home, f"the home page: WCAG 2.1 A/AA violations:\n{said(home)}"
