"""Late work: each student's due date, how late each submission was, and its penalty, worked out on
the final score whatever the order of grading, hand grading and export.

nbgrader fixes a late notebook's penalty when it autogrades it, from the score it has then: under
``c.LateSubmissionPlugin.penalty_method = "zero"`` a written answer graded by hand afterwards is
added back on top of a zero. ``settle`` asks nbgrader's own configured plugin
(``c.AssignLatePenalties.plugin_class``) again, with each late notebook's score as it is now, and
stores what it says in the gradebook, so formgrader, feedback, the exports and the report show one
number. ``grade``, ``export``, ``report`` and ``feedback`` settle first, and write each lesson's due
date of ``c.LateWork.due_dates`` into the gradebook.

Before that, each student's own due date (``records/extensions.py``: the course's extensions file,
or what the LMS said) is stored as nbgrader's per-submission ``extension``, which nbgrader's
``total_seconds_late`` counts from, so every penalty uses it. A submission its LMS marked late without
saying when (Canvas's ``LATE``) has no time: the plugin, which needs one, is not asked, and
``c.LateWork.time_unknown_penalty`` says what it costs.
"""
from datetime import datetime, timezone

from traitlets import Dict, Float, Unicode
from traitlets.config import Configurable


class LateWork(Configurable):
    time_unknown_penalty = Float(
        0.0, min=0.0, max=1.0,
        help="The share of its score a submission loses when its LMS marks it late without saying when "
             "(Canvas's LATE): 0 takes nothing off, 1 scores it 0, 0.1 takes a tenth. No time is made up for "
             "it and the late-penalty plugin is not asked; every page and export says 'late, time unknown'."
    ).tag(config=True)
    due_dates = Dict(
        {}, help="lesson -> its due date, 'YYYY-MM-DD HH:MM' in c.Collect.timezone, e.g. {'01_graph': "
                 "'2026-03-02 12:00'}: written into the gradebook by grade, feedback, export and report (it "
                 "wins over a due date set with nbgrader's own 'nbgrader db assignment add --duedate'). Late "
                 "penalties count from it, or from a student's extension."
    ).tag(config=True)
    extensions_file = Unicode(
        "extensions.csv",
        help="The course's extensions, a CSV (relative to the course directory): student_id,lesson,due with "
             "due as 'YYYY-MM-DD HH:MM' in c.Collect.timezone, the student's own due date for that lesson. "
             "It wins over an extension the LMS's download gave (Moodle's grading worksheet)."
    ).tag(config=True)


def extension_dates(root: str, config) -> dict[tuple[str, str], tuple[datetime, str]]:
    from ..lms_settings import Collect
    from ..records.extensions import due_dates
    return due_dates(root, LateWork(config=config).extensions_file, Collect(config=config).timezone)


def lesson_due_dates(config) -> dict[str, datetime]:
    """c.LateWork.due_dates as the gradebook keeps them: naive UTC."""
    from zoneinfo import ZoneInfo

    from ..lms_settings import Collect
    zone = ZoneInfo(Collect(config=config).timezone)
    dues = {}
    for lesson, text in LateWork(config=config).due_dates.items():
        try:
            local = datetime.strptime(text, "%Y-%m-%d %H:%M").replace(tzinfo=zone)
        except ValueError:
            raise ValueError(f"c.LateWork.due_dates[{lesson!r}] = {text!r}: write it as 'YYYY-MM-DD HH:MM'") from None
        dues[lesson] = local.astimezone(timezone.utc).replace(tzinfo=None)
    return dues


def settle(root: str) -> int:
    """Every student's due date into the gradebook, then every late notebook's penalty from its score
    now (hand grades included); how many penalties or due dates changed."""
    from nbgrader.preprocessors import AssignLatePenalties

    from ...course_dir import load_config, open_api
    from ..records.upload_record import late_time_unknown
    config = load_config(root)
    assigner = AssignLatePenalties(config=config)
    assigner.init_plugin()
    unknown, share = late_time_unknown(root), LateWork(config=config).time_unknown_penalty
    extended = extension_dates(root, config)
    changed, dues = 0, lesson_due_dates(config)
    with open_api(root, config).gradebook as gradebook:
        for assignment in gradebook.assignments:
            if assignment.name in dues and assignment.duedate != dues[assignment.name]:
                assignment.duedate = dues[assignment.name]
                changed += 1
            for submission in gradebook.assignment_submissions(assignment.name):
                key = (submission.student.id, assignment.name)
                changed += _extend(submission, assignment.duedate, extended.get(key))
                seconds = submission.total_seconds_late or 0
                for notebook in submission.notebooks:
                    wanted = None
                    if key in unknown and seconds == 0:
                        wanted = round(share * notebook.score, 6) if share else None
                    elif seconds > 0:
                        said = assigner.plugin_inst.late_submission_penalty(submission.student.id, notebook.score,
                                                                            seconds)
                        wanted = None if said is None else assigner._check_late_penalty(notebook, said)
                    if wanted != notebook.late_submission_penalty:
                        notebook.late_submission_penalty = wanted
                        changed += 1
        if changed:
            gradebook.db.commit()
    return changed


def _extend(submission, lesson_due: datetime | None, own: tuple[datetime, str] | None) -> int:
    """nbgrader's extension: the student's own due date less the lesson's (gradebook times are naive UTC)."""
    wanted = None
    if own is not None and lesson_due is not None:
        wanted = own[0].astimezone(timezone.utc).replace(tzinfo=None) - lesson_due
    if wanted == submission.extension:
        return 0
    submission.extension = wanted
    return 1


def how_late(seconds: float, time_unknown: bool, has_due_date: bool) -> str:
    """What every page and export says of a submission's time: "" (on time, or no due date to be late
    for), "late, time unknown", or "late by 1 day 8 h"."""
    if time_unknown and not seconds:
        return "late, time unknown"
    if not seconds or not has_due_date:
        return ""
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    minutes = rest // 60
    parts = [f"{days} day{'s' if days != 1 else ''}" if days else "", f"{hours} h" if hours else "",
             f"{minutes} min" if minutes and not days else ""]
    return "late by " + (" ".join(p for p in parts if p) or "under a minute")
