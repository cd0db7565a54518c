"""Canvas's "Download Submissions": one zip per assignment (canvas-lms lib/content_zipper.rb).

``get_filename`` joins the student's sortable name (lower case, only word characters), ``LATE`` when
Canvas counts the submission late, and the user id; ``add_upload_submission`` appends the file's
attachment id and its display name. A later upload is a new attachment with a larger id, so that id
orders a student's files; a re-uploaded file of the same name gets -1, -2 before its extension.
Canvas says a file is late, not when: collect records it one second after the due date.
"""
import re

from . import Reader


class Named(Reader):
    name = "canvas"
    about = ("Canvas 'Download Submissions': lastfirst[_LATE]_userid_fileid_filename; a re-uploaded "
             "file of the same name gets -1, -2 before its extension")
    example = "smithjohn_LATE_48213_1177302_02_backward-1.ipynb"
    pattern = re.compile(r"(?P<name>[^/_]+)(?P<late>_(?i:late))?_(?P<student>\d{1,20})_(?P<attempt>\d{1,20})_"
                         r"(?P<filename>[^/]+)")
    roster_columns = ("canvas_id",)


class Anonymous(Reader):
    """An anonymously graded assignment: no name, and "anon_" + the submission's own anonymous id (one
    per student and assignment) in place of the user id."""
    name = "canvas-anonymous"
    about = ("Canvas 'Download Submissions' of an anonymously graded assignment: "
             "[LATE_]anon_anonymousid_fileid_filename")
    example = "LATE_anon_gX7kq_1177302_02_backward.ipynb"
    pattern = re.compile(r"(?P<late>(?i:late)_)?anon_(?P<student>[A-Za-z0-9]{1,64})_(?P<attempt>\d{1,20})_"
                         r"(?P<filename>[^/]+)")
    roster_columns = ("canvas_anonymous_id",)
    hidden = ("; Canvas hides who submitted it until the assignment's grades are posted: add the id to the "
              "roster's canvas_anonymous_id, collect without a roster to grade it blind, or download again "
              "once grades are posted")

    def folder_id(self, raw: str) -> str:
        return f"anon_{raw}"


NAMED, ANONYMOUS = Named(), Anonymous()
