from zip_tricks import make_zip

from . import NOTEBOOK

NAME = "canvas_zip64"
WHY = "hands in the solution in a ZIP64 zip (what zips over 4 GiB use): it is the student's, and read"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": "solution", "reason": f"work.zip/{NOTEBOOK}"}


def build(kit):
    return {kit.canvas("work.zip"): make_zip({NOTEBOOK: kit.solution}, zip64=True)}
