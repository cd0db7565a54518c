import json

from . import NOT_GRADED

NAME = "json_not_a_notebook"
WHY = "valid JSON that says nbformat 4 but whose cells are not a list"
KIND = "broken_file"
EXPECT = {"score": NOT_GRADED, "reason": "missing an expected key"}


def build(release, solutions):
    return json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": "def vjp(f, x, v): ..."})
