from zip_tricks import make_zip, with_invalid_utf8_name

from . import LESSON

NAME = "canvas_invalid_utf8_name"
WHY = "hands in a zip that says its names are UTF-8 and holds one that is not"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "is not a readable zip (UnicodeDecodeError"}


def build(kit):
    return {kit.canvas("work.zip"): with_invalid_utf8_name(make_zip({f"{LESSON}_é.ipynb": kit.solution}))}
