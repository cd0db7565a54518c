from . import NOTEBOOK, classmate

NAME = "folder_names_classmate"
WHY = "hands in, in its own folder, a folder named after Dorothy Vaughan's holding the blank notebook"
KIND = "whose"
LMS = "folders"
VICTIM = classmate("dvaughan")
EXPECT = {"graded": "blank", "reason": f"{VICTIM.lms_id}/{NOTEBOOK}"}


def build(kit):
    return {f"{kit.student}/{VICTIM.lms_id}/{NOTEBOOK}": kit.blank}
