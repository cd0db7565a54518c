from zip_tricks import make_zip

from . import NOTEBOOK

NAME = "canvas_many_entries"
WHY = "hands in a zip of 20,000 empty files beside the solution (collect once read the upload list for each)"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "holds more than 1000 files (c.Collect.max_upload_entries)"}


def build(kit):
    return {kit.canvas("work.zip"): make_zip({NOTEBOOK: kit.solution, **{f"f/{i:05d}": b"" for i in range(20_000)}})}
