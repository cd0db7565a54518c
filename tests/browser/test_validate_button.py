"""Validate, as a student clicks it in `make lab`: whether the core passed, and which optional sections remain.

The student's JupyterLab is started as `make lab` starts it (jupyter-config/student/ first on
JUPYTER_CONFIG_PATH). The student opens lesson 2, clicks Validate on the blank notebook and is told the
core has not passed, each core exercise named with what to do; they type the core's two answers into their
cells, click Validate again and are told the core passed and which optional sections remain, by name.
Neither answer lists a cell as "failed" nor shows a traceback. The class hub's student clicks the same
button on their server (tests/browser/test_hub.py).
"""
import os

import pytest

from autograder.authoring.wrong_answers import solution_cells
from conftest import ROOT
from lesson_solutions import source_notebook

from .chromium import launched, require_browser
from .jupyterlab_server import lab_as

pytestmark = pytest.mark.browser
LESSON = "02_backward"
CORE = ("grad_via_backward", "two_losses")
SHOTS = os.path.join(ROOT, "test-artifacts", "validate")

require_browser()
from playwright.sync_api import expect  # noqa: E402


def click_validate(page):
    """The toolbar's Validate, as a student clicks it; the dialog it opens."""
    page.locator(".jp-NotebookPanel-toolbar .validate-button").get_by_text("Validate").click()
    dialog = page.locator(".jp-Dialog")
    expect(dialog.get_by_text("Validation Results")).to_be_visible(timeout=240_000)  # the whole lesson runs first
    return dialog


def type_answer(page, name: str, code: str) -> None:
    """Select all of the exercise's stub in its cell and type the answer over it, as a paste."""
    editor = page.locator(".jp-Notebook .jp-CodeCell .cm-content", has_text=f"def {name}(")
    editor.click()
    page.keyboard.press("ControlOrMeta+a")
    page.keyboard.insert_text(code)
    expect(editor).not_to_contain_text("raise NotImplementedError")


def test_validate_says_whether_the_core_passed_and_which_optional_sections_remain():
    answers = solution_cells(source_notebook(LESSON))
    with lab_as("student", os.path.join(ROOT, "release")) as lab, launched() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.set_default_timeout(60_000)
        page.goto(lab.notebook_url(f"{LESSON}/{LESSON}.ipynb"))
        expect(page.locator(".jp-NotebookPanel-toolbar .validate-button")).to_have_text("Validate", timeout=60_000)
        os.makedirs(SHOTS, exist_ok=True)

        dialog = click_validate(page)
        expect(dialog).to_contain_text("The core has not passed yet: 0 of 2 exercises correct.")
        expect(dialog).to_contain_text("Exercise 1: a gradient with backward() (grad_via_backward): not attempted "
                                       "yet. grad_via_backward still raises NotImplementedError. Replace the "
                                       "raise NotImplementedError() line with your code")
        expect(dialog).to_contain_text("Exercise 2: two losses on one graph (two_losses): not attempted yet.")
        page.screenshot(path=os.path.join(SHOTS, "1-blank.png"))
        for text in ("failed", "Traceback", "following cell"):
            expect(dialog).not_to_contain_text(text)
        dialog.get_by_role("button", name="Ok").click()

        for name in CORE:
            type_answer(page, name, answers[name])
        dialog = click_validate(page)
        expect(dialog).to_contain_text("The core passed: all 2 exercises correct.")
        expect(dialog).to_contain_text("Going further (optional): 5 sections still open.")
        expect(dialog.locator("li")).to_have_text([
            "7. gradient= is a vector-Jacobian product: Exercise 3 (vjp) not attempted yet, the written answer "
            "not answered yet.",
            "8. Only leaves keep .grad: retain_grad(): Exercise 4 (grads_with_intermediate) not attempted yet.",
            "9. torch.autograd.grad: gradients without .grad: Exercise 5 (jacobian_rows) not attempted yet.",
            "10. The chain rule by hand: Exercise 6 (hand_derivative) not attempted yet.",
            "11. Gradients of gradients: create_graph=True: Exercise 7 (hvp) not attempted yet."])
        expect(dialog.locator("code", has_text="gradient=")).to_have_count(1)  # `code` shown as code
        page.screenshot(path=os.path.join(SHOTS, "2-core-passed.png"))
        for text in ("failed", "Traceback", "following cell", "has not passed"):
            expect(dialog).not_to_contain_text(text)
