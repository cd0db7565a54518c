from zip_tricks import make_zip

from . import NOTEBOOK

NAME = "canvas_zips_in_zips"
WHY = "hands in its notebook in a zip beside a zip nested five deep (the blank notebook at the bottom)"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": "solution", "reason": "a zip inside a zip: kept as it is, not opened"}


def build(kit):
    nested = make_zip({NOTEBOOK: kit.blank})
    for depth in range(5):
        nested = make_zip({f"level{depth}.zip": nested})
    return {kit.canvas("work.zip"): make_zip({NOTEBOOK: kit.solution, "more.zip": nested})}
