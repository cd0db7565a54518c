import zipfile

from zip_tricks import make_zip, with_declared_size

from . import NOTEBOOK

NAME = "canvas_lying_size"
WHY = "hands in a zip whose directory declares its notebook 100 bytes, to slip past a size check"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "Bad CRC-32"}


def build(kit):
    zipped = make_zip({NOTEBOOK: kit.solution}, zipfile.ZIP_STORED)
    return {kit.canvas("work.zip"): with_declared_size(zipped, NOTEBOOK, 100)}
