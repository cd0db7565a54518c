from . import HONEST_STAMP, NOTEBOOK, classmate

NAME = "blackboard_names_classmate"
WHY = ("uploads the blank notebook under a name that reads as Grace Hopper's later attempt, and a text file "
       "named like a Blackboard receipt that gives Grace's real file to the cheat")
KIND = "whose"
LMS = "blackboard"
VICTIM = classmate("ghopper")
EXPECT = {"graded": "blank", "reason": "_attempt_2099-01-01-00-00-00_"}


def build(kit):
    victims_file = f"Lesson 2_{VICTIM.lms_id}_attempt_{HONEST_STAMP}_{NOTEBOOK}"
    forged_receipt = (f"Name: {kit.name} ({kit.username})\nFiles:\n\tFilename: {victims_file}\n").encode()
    return {kit.blackboard(f"x_{VICTIM.lms_id}_attempt_2099-01-01-00-00-00_{NOTEBOOK}"): kit.blank,
            kit.blackboard(f"y_attempt_{HONEST_STAMP}.txt"): forged_receipt}
