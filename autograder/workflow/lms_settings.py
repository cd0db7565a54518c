"""The settings of the LMS side of the week (collect, export), read from ``nbgrader_config.py``.

They are traitlets, as nbgrader's own are, so ``c.Collect.max_notebook_bytes = ...`` in the course's
``nbgrader_config.py`` sets them and the defaults are documented here once. A course folder without
that file (a scratch folder in a test) gets the defaults.
"""
import os

from traitlets import Dict, Integer, Unicode
from traitlets.config import Config, Configurable


class Collect(Configurable):
    max_notebook_bytes = Integer(
        50 * 1024**2, help="Largest notebook collect reads (bytes, uncompressed), checked before reading it. "
                           "A lesson notebook with its outputs is well under 5 MB; a bigger file is refused "
                           "with its reason and the student is told.").tag(config=True)
    max_download_bytes = Integer(
        4 * 1024**3, help="Largest download collect opens (bytes, all entries uncompressed, nested zips "
                          "included), checked before reading anything: about 40 MB per student for a "
                          "class of 100.").tag(config=True)
    max_upload_bytes = Integer(
        100 * 1024**2, help="Most bytes one student's uploads in a download may unpack to (every file they "
                            "handed in, zips and what they hold), counted while each is read, whatever a zip "
                            "declares. Past it the upload is refused with the reason, and every other student "
                            "is collected as usual.").tag(config=True)
    max_upload_entries = Integer(
        1000, help="Most files and folders one student's uploads in a download may hold, a zip's entries "
                   "included (junk such as __MACOSX/ too). A lesson's upload is a notebook, or a zip of a "
                   "few files; past it the upload is refused with the reason.").tag(config=True)
    max_upload_depth = Integer(
        1, help="How deep zips are opened inside a student's upload: 1 opens the zip a student handed in; "
                "a zip inside it is kept as it is, not opened (2 opens that one too).").tag(config=True)
    timezone = Unicode(
        "UTC", help="The LMS server's time zone (an IANA name such as Europe/Berlin), for the local times "
                    "written in Blackboard's file names and in a Moodle grading worksheet (the zone of the "
                    "Moodle user who downloaded it).").tag(config=True)
    moodle_date_format = Unicode(
        "%A, %d %B %Y, %I:%M %p", help="How a Moodle grading worksheet writes its times (strptime), for "
                                       "--moodle-worksheet: Moodle's English default, 'Monday, 2 March 2026, "
                                       "11:59 PM'.").tag(config=True)


class CanvasExport(Configurable):
    assignments = Dict(
        {}, help="lesson -> [title, id] of the course's Canvas assignment, e.g. "
                 "{'01_graph': ['Lesson 1: the graph', 81234]}; the id is the number at the end of the "
                 "assignment's Canvas URL. canvas.csv names its column 'title (id)', as Canvas's own "
                 "export does, so the import fills that assignment. A lesson not listed here gets a "
                 "column named by the lesson, which Canvas imports as a new assignment.").tag(config=True)


class MoodleExport(Configurable):
    maximum_grades = Dict(
        {}, help="lesson -> the Maximum grade of its Moodle assignment, e.g. {'02_backward': 100} (Moodle's "
                 "default is 100): each lesson's worksheet gives the score scaled to it. A lesson not listed "
                 "here gets its points as they are, and its Moodle assignment's Maximum grade must be set to "
                 "the lesson's points: Moodle skips a grade above the maximum without a word.").tag(config=True)


class LMSFiles(Configurable):
    columns = Dict(
        {}, help="lesson -> the title the LMS gives its assignment, e.g. {'01_graph': 'Lesson 1'}: export --into "
                 "finds the lesson's column in the LMS's gradebook file by it (Blackboard's 'Lesson 1 [Total Pts: "
                 "12 Score] |123', D2L's 'Lesson 1 Points Grade', Canvas's 'Lesson 1 (81001)'). Default: the "
                 "title in c.CanvasExport.assignments, else the lesson's own name.").tag(config=True)


def course_config(root: str) -> Config:
    """The course's configuration, or an empty one when the folder has no nbgrader_config.py."""
    if not os.path.exists(os.path.join(root, "nbgrader_config.py")):
        return Config()
    from ..course_dir import load_config
    return load_config(root)


def canvas_assignments(root: str) -> dict:
    return dict(CanvasExport(config=course_config(root)).assignments)
