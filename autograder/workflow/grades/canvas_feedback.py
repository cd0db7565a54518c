"""Feedback pages back to Canvas: one zip per lesson for the assignment's "Re-Upload Submissions".

Canvas's re-upload (canvas-lms ``Assignment#generate_comments_from_files`` and
``infer_comment_context_from_filename``) reads each file's name split at "_": the first two parts made
of digits alone are the user id and the id of an attachment of that user's submission; a file whose
attachment is not one of the submission's is ignored. Each matched file becomes a submission comment
("See attached file") on that student's submission. So each page is named as Canvas named the
student's graded upload in its download, ``lastfirst[_LATE]_<user id>_<attachment id>_``, then
``<lesson>-feedback.html``; the ids come from ``collected.csv``. An anonymously graded assignment's
files carry no user id and cannot be matched: those students get no file here. Read from Canvas's
code as described; not tried on a Canvas site here.
"""
import os

from ..collect.lms.canvas import NAMED
from .feedback_archive import write_archive


def canvas_name(source: str) -> str | None:
    """The re-upload name's stem for a notebook collected from ``source`` (as collected.csv keeps it),
    or None when it is not a named Canvas download's file."""
    match = NAMED.pattern.fullmatch(source.replace("\\", "/").rsplit("/", 1)[-1])
    if match is None:
        return None
    return f"{match['name']}{match['late'] or ''}_{match['student']}_{match['attempt']}"


def write_feedback_zips(out: str, sources: dict[tuple[str, str], str], lessons: list[str],
                        current: dict[tuple[str, str], str]) -> dict[str, tuple[str, int]]:
    """lesson -> (the zip written, how many pages it holds); ``sources``: (student, lesson) -> the
    Canvas file collected; ``current``: (student, lesson) -> page, the pages still true to their submission."""
    written = {}
    for lesson in lessons:
        pages = sorted((canvas_name(sources[key]), page) for key, page in current.items()
                       if key[1] == lesson and key in sources and canvas_name(sources[key]))
        if not pages:
            continue
        path = os.path.join(out, f"{lesson}-feedback.zip")
        write_archive(path, [(f"{stem}_{lesson}-feedback.html", page) for stem, page in pages])
        written[lesson] = (path, len(pages))
    return written
