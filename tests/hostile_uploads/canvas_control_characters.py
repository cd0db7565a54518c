from zip_tricks import make_zip

from . import NOTEBOOK, classmate

NAME = "canvas_control_characters"
WHY = ("hands in the blank notebook beside files whose names hold a newline and a forged report line, terminal "
       "escapes and a right-to-left override, to rewrite what the instructor reads")
KIND = "names"
LMS = "canvas"
VICTIM = classmate("alovelace")
EXPECT = {"graded": "blank", "reason": f"\\nplaced {VICTIM.student_id}/02_backward from"}


def build(kit):
    return {kit.canvas("work.zip"): make_zip({
        NOTEBOOK: kit.blank, f"notes.txt\nplaced {VICTIM.student_id}/02_backward from forged.ipynb": b"x",
        "\x1b[2K\x1b[1Aclear.txt": b"x", "report\u202efdp.txt": b"x"})}
