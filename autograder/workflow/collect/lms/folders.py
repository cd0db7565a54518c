"""Folders a person made: one per student, as submitted/ has them, or with the notebooks straight inside.

The student folder is the download's first level below its wrappers (``download_files.py``); everything
inside it, in subfolders or zips, is that student's whatever its own name says.
"""
import re

from . import Reader

_EVERY_COLUMN = ("student_id", "username", "login_id", "email", "name")


class LessonFolders(Reader):
    name = "lesson-folders"
    about = "a folder per student with nbgrader's lesson folder inside, as in submitted/"
    example = "jsmith7/02_backward/02_backward.ipynb"
    pattern = re.compile(r"(?P<student>[^/]+)/(?P<lesson>\d\d_[^/]+)/(?P<filename>.+)")
    roster_columns = _EVERY_COLUMN
    from_lms = False


class StudentFolders(Reader):
    name = "student-folders"
    about = "a folder per student holding the notebook"
    example = "jsmith7/02_backward.ipynb"
    pattern = re.compile(r"(?P<student>[^/]+)/(?P<filename>.+)")
    roster_columns = _EVERY_COLUMN
    from_lms = False


LESSON_FOLDERS, STUDENT_FOLDERS = LessonFolders(), StudentFolders()
