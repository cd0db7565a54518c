from . import NOTEBOOK, classmate

NAME = "moodle_folder_names_classmate"
WHY = ("puts the blank notebook in a subfolder of its Moodle submission named as Moodle names John Smith's "
       "folder, so that John's own notebook meets a rival and is left unplaced")
KIND = "whose"
LMS = "moodle"
VICTIM = classmate("jsmith")
EXPECT = {"graded": "blank", "reason": f"{VICTIM.name}_{VICTIM.lms_id}_assignsubmission_file/{NOTEBOOK}"}


def build(kit):
    return {kit.moodle(f"{VICTIM.name}_{VICTIM.lms_id}_assignsubmission_file/{NOTEBOOK}"): kit.blank}
