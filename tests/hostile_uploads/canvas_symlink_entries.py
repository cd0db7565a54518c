from zip_tricks import make_zip, symlink_entry

from . import LESSON, NOTEBOOK

NAME = "canvas_symlink_entries"
WHY = ("hands in a zip whose notebook is a symbolic link entry to the course's source notebook (the "
       "solutions), as an unzip that keeps links would write it")
KIND = "names"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "a symbolic link in the zip: not followed, not kept",
          "status": "holds nothing that could be kept"}


def build(kit):
    return {kit.canvas("work.zip"): make_zip({NOTEBOOK: symlink_entry(f"../../../source/{LESSON}/{NOTEBOOK}")})}
