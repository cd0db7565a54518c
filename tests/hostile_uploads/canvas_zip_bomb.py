from zip_tricks import make_zip

from . import NOTEBOOK

NAME = "canvas_zip_bomb"
WHY = "hands in a 0.6 MiB zip of twelve 49 MB entries of zeros beside the solution (589 MB once unpacked)"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "unpacks to more than 100.0 MiB (c.Collect.max_upload_bytes)",
          "status": "c.Collect.max_upload_bytes"}


def build(kit):
    return {kit.canvas("work.zip"): make_zip({NOTEBOOK: kit.solution,
                                              **{f"data/part{i}.bin": bytes(49 * 1000**2) for i in range(12)}})}
