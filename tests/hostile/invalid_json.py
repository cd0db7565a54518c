from . import NOT_GRADED

NAME = "invalid_json"
WHY = "the file is cut off in the middle: not JSON at all"
KIND = "broken_file"
EXPECT = {"score": NOT_GRADED, "reason": "NotJSONError"}


def build(release, solutions):
    return '{"cells": [ {"cell_type": "code", "source": "def vjp('
