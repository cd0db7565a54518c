"""Debian's Chromium for the browser tests: where it is, how to start it, and what to do without it.

Started with the flags this closed network needs (no background connections, no component
updates); never downloaded (no `playwright install`). On CI a missing browser fails the run,
elsewhere it skips the browser tests with the reason.
"""
import os
from contextlib import contextmanager

import pytest

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


def require_browser() -> None:
    """Call at a browser test module's top: skips (or, on CI, fails) when there is no browser."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        missing = "Python Playwright is not installed"
    else:
        missing = None if os.path.exists(CHROMIUM) else f"Chromium is not installed at {CHROMIUM}"
    if missing and os.environ.get("CI"):
        pytest.fail(f"browser tests cannot run on CI: {missing}", pytrace=False)
    if missing:
        pytest.skip(f"browser tests need a browser: {missing}", allow_module_level=True)


@contextmanager
def launched():
    """Debian's Chromium, headless, with the flags above: the one way the browser tests start it."""
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()
