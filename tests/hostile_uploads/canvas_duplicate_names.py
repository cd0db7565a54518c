from zip_tricks import make_zip

from . import LESSON, NOTEBOOK

NAME = "canvas_duplicate_names"
WHY = ("hands in the solution and the blank notebook under names differing only in case, and two notes whose "
       "names differ only in Unicode normalisation (NFC and NFD)")
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "2 different notebooks and nothing tells which is latest",
          "status": "nothing tells which to grade"}


def build(kit):
    return {kit.canvas("work.zip"): make_zip({NOTEBOOK: kit.solution, f"{LESSON.upper()}.ipynb": kit.blank,
                                              "r\u00e9sum\u00e9.md": b"composed", "re\u0301sume\u0301.md": b"decomposed"})}
