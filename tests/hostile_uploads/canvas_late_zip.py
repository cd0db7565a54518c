from zip_tricks import make_zip

from . import NOTEBOOK

NAME = "canvas_late_zip"
WHY = "hands in the solution late, in a zip, hoping the notebook inside comes with no time"
KIND = "when"
LMS = "canvas"
EXPECT = {"graded": "solution", "late": "time unknown", "reason": "late, time unknown (the LMS says late, not when)"}


def build(kit):
    return {kit.canvas("work.zip", late=True): make_zip({f"my work/{NOTEBOOK}": kit.solution})}
