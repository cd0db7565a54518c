"""Every row a grading run leaves in a gradebook, keyed by names rather than generated ids, so two
gradebooks written by different code (nbgrader's autograde, our recorder) compare with ``==``."""
from nbgrader.api import Gradebook


def gradebook_rows(url: str) -> dict:
    rows = {}
    with Gradebook(url) as gradebook:
        rows["students"] = sorted((s.id, s.first_name, s.last_name, s.email, s.lms_user_id)
                                  for s in gradebook.students)
        for assignment in gradebook.assignments:
            for submission in assignment.submissions:
                key = (assignment.name, submission.student.id)
                rows[key] = {
                    "timestamp": submission.timestamp, "extension": submission.extension,
                    "score": submission.score, "needs_manual_grade": submission.needs_manual_grade,
                    "notebooks": {
                        notebook.name: {
                            "late_submission_penalty": notebook.late_submission_penalty,
                            "flagged": notebook.flagged,
                            "grades": sorted((g.name, g.auto_score, g.manual_score, g.extra_credit,
                                              g.needs_manual_grade) for g in notebook.grades),
                            "comments": sorted((c.name, c.auto_comment, c.manual_comment) for c in notebook.comments),
                        } for notebook in submission.notebooks}}
    return rows
