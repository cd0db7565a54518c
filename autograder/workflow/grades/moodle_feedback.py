"""Feedback pages back to Moodle: one zip per lesson for "Upload multiple feedback files in a zip".

Moodle's importer (``mod/assign/feedback/file/importziplib.php``) splits each path in the zip at its
first four "_": ``<name>_<participant id>_assignsubmission_file_/<file>``, finds the student by the
participant id (the same per-assignment id its download names, kept by collect in ``lms_ids.csv``)
and checks the plugin; the name part is for people. Each page goes in as ``Participant_<id>_...``,
Moodle's own blind-marking name, so no student's name needs cleaning the way Moodle cleans it.
Read from Moodle's code as described; not run against a Moodle site here.
"""
import os

from ..collect.moodle_worksheet import PARTICIPANT
from .feedback_archive import write_archive


def write_feedback_zips(out: str, ids: dict[str, dict[str, str]], lessons: list[str],
                        current: dict[tuple[str, str], str]) -> dict[str, tuple[str, int]]:
    """lesson -> (the zip written, how many pages it holds), for each Moodle lesson with feedback pages;
    ``current``: (student, lesson) -> page, the pages still true to their submission (no stale one goes)."""
    written = {}
    for lesson in lessons:
        pages = [(participant, current[(student, lesson)])
                 for student, participant in sorted(ids.get(lesson, {}).items()) if (student, lesson) in current]
        if not pages:
            continue
        path = os.path.join(out, f"{lesson}-feedback.zip")
        write_archive(path, [(f"{PARTICIPANT.strip()}_{participant}_assignsubmission_file_/{lesson}.html", page)
                             for participant, page in pages])
        written[lesson] = (path, len(pages))
    return written
