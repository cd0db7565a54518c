"""Moodle's assignment "Download all submissions" (mod/assign/locallib.php ``download_submissions``).

The prefix is ``clean_filename(full name)`` (its "_" turned into spaces) + "_" + the participant id of
``get_uniqueid_for_user()``, or ``Participant_<id>`` under blind marking. Moodle 4.1 and later put
each student's files in the folder ``prefix_assignsubmission_file/``; 3.1 to 4.0 wrote
``prefix_assignsubmission_file_/``, older ones a flat ``prefix_assignsubmission_file_filename``. The
id is the per-assignment participant id (the "Participant <id>" of the grading worksheet), matched by
the roster's ``moodle_id``. File names carry no time: the grading worksheet does (``moodle_worksheet``).
"""
import re

from . import Reader

BLIND_NAME = "Participant"  # get_string('participant', 'assign') in English


class Moodle(Reader):
    name = "moodle"
    about = ("Moodle assignment 'Download all submissions': Full Name_participantid_assignsubmission_file/"
             "file (4.1+; with a trailing _ before 4.1, or flat), Participant_id_... under blind marking")
    example = "Jürgen Müller_2046_assignsubmission_file/02_backward.ipynb"
    pattern = re.compile(r"(?P<name>[^/]+?)_(?P<student>\d{1,20})_assignsubmission_(?:file|onlinetext)(?:_/|/|_)"
                         r"(?P<filename>.+)")
    roster_columns = ("moodle_id",)
    keeps_ids = True

    def display_name(self, match):
        name = match["name"]
        return None if name == BLIND_NAME else name  # blind marking: the participant id is all there is


READER = Moodle()
