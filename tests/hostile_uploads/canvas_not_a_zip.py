NAME = "canvas_not_a_zip"
WHY = "hands in its notebook renamed to work.zip"
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "work.zip is not a readable zip (BadZipFile: File is not a zip file)"}


def build(kit):
    return {kit.canvas("work.zip"): kit.solution}
