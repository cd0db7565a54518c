from . import NOT_GRADED

NAME = "empty_file"
WHY = "a notebook file of zero bytes"
KIND = "broken_file"
EXPECT = {"score": NOT_GRADED, "reason": "NotJSONError"}


def build(release, solutions):
    return ""
