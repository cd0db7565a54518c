from . import NOT_GRADED

NAME = "empty_file"
WHY = "a notebook file of zero bytes"
KIND = "broken_file"
EXPECT = {"score": NOT_GRADED, "reason": "an empty file (0 bytes of notebook)"}  # as collect says it


def build(release, solutions):
    return ""
