import zipfile

from zip_tricks import make_zip, with_declared_size

from . import NOTEBOOK

NAME = "canvas_huge_declared_size"
WHY = "hands in a zip whose directory declares its notebook 4 GiB"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "c.Collect.max_upload_bytes"}


def build(kit):
    zipped = make_zip({NOTEBOOK: kit.solution}, zipfile.ZIP_STORED)
    return {kit.canvas("work.zip"): with_declared_size(zipped, NOTEBOOK, 0xFFFFFFF0)}
