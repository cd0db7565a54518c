"""Late penalties worked out on the final score, whatever the order of grading, hand grading and export.

nbgrader fixes a late notebook's penalty when it autogrades it, from the score it has then: under
``c.LateSubmissionPlugin.penalty_method = "zero"`` a written answer graded by hand afterwards is
added back on top of a zero. ``settle`` asks nbgrader's own configured plugin
(``c.AssignLatePenalties.plugin_class``) again, with each late notebook's score as it is now, and
stores what it says in the gradebook, so formgrader, feedback, the exports and the report show one
number. ``export``, ``report`` and ``feedback`` settle first.
"""


def settle(root: str) -> int:
    """Every late notebook's penalty from its score now (hand grades included); how many changed."""
    from nbgrader.preprocessors import AssignLatePenalties

    from ...course_dir import load_config, open_api
    config = load_config(root)
    assigner = AssignLatePenalties(config=config)
    assigner.init_plugin()
    changed = 0
    with open_api(root, config).gradebook as gradebook:
        for assignment in gradebook.assignments:
            for submission in gradebook.assignment_submissions(assignment.name):
                seconds = submission.total_seconds_late or 0
                for notebook in submission.notebooks:
                    wanted = None
                    if seconds > 0:
                        said = assigner.plugin_inst.late_submission_penalty(submission.student.id, notebook.score,
                                                                            seconds)
                        wanted = None if said is None else assigner._check_late_penalty(notebook, said)
                    if wanted != notebook.late_submission_penalty:
                        notebook.late_submission_penalty = wanted
                        changed += 1
        if changed:
            gradebook.db.commit()
    return changed
