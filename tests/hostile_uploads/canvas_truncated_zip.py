from zip_tricks import make_zip

from . import NOTEBOOK

NAME = "canvas_truncated_zip"
WHY = "hands in a zip cut short (an upload that broke off)"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "work.zip is not a readable zip (BadZipFile"}


def build(kit):
    return {kit.canvas("work.zip"): make_zip({NOTEBOOK: kit.solution})[:-300]}
