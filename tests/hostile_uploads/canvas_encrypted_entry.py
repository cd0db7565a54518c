from zip_tricks import make_zip, with_flag

from . import NOTEBOOK

NAME = "canvas_encrypted_entry"
WHY = "hands in a zip whose notebook entry is marked encrypted"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": f"work.zip/{NOTEBOOK} is encrypted"}


def build(kit):
    return {kit.canvas("work.zip"): with_flag(make_zip({NOTEBOOK: kit.solution}), NOTEBOOK, 0x1)}
