from zip_tricks import make_zip

from . import NOTEBOOK, canvas_name, classmate

NAME = "canvas_zip_names_classmate"
WHY = ("hands in a zip holding the blank notebook named as Canvas names Charles Babbage's upload, with a larger "
       "attachment id, to replace his graded work with it")
KIND = "whose"
LMS = "canvas"
VICTIM = classmate("cbabbage")
EXPECT = {"graded": "blank", "reason": "work.zip/"}


def build(kit):
    forged = f"{canvas_name(VICTIM.name)}_{VICTIM.lms_id}_99999999_{NOTEBOOK}"
    return {kit.canvas("work.zip"): make_zip({forged: kit.blank})}
