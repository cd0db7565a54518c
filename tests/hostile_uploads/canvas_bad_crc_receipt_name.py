import zipfile

from zip_tricks import make_zip, with_bad_crc

from . import HONEST_STAMP, NOTEBOOK

NAME = "canvas_bad_crc_receipt_name"
WHY = ("hands in a zip whose entry named like a Blackboard receipt has a bad CRC: read as a receipt, it once "
       "stopped collect for the whole class (zipfile.BadZipFile)")
KIND = "bounds"
LMS = "canvas"
EXPECT = {"graded": None, "reason": "could not be read from the zip (BadZipFile: Bad CRC-32",
          "status": "nothing handed in could be graded: work.zip (a zip)"}
RECEIPT = f"Lesson 2_someone_attempt_{HONEST_STAMP}.txt"


def build(kit):
    zipped = make_zip({NOTEBOOK: kit.solution, RECEIPT: b"Name: Some One (someone)\n"}, zipfile.ZIP_STORED)
    return {kit.canvas("work.zip"): with_bad_crc(zipped, RECEIPT)}
