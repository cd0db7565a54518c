"""A group's notebook is every member's: after collect places what one member handed in, each other
member of that student's group (the roster's ``group`` column) gets the same notebook and time, unless
the download holds an upload of their own for that lesson.

Canvas's download of a group assignment names each group's upload by the group's name and the user id
of the member who handed it in (canvas-lms ``ContentZipper``: ``Assignment#representatives`` gives that
member the group's name as its sortable name), so the file is matched to that member by ``canvas_id``;
the download does not list the other members, which is why the roster's ``group`` column says them.
"""
import os
import shutil

from ..records import groups
from ..records.replaced import keep_replaced
from ..records.status import clear_problem
from .report import Item


def share(run, placed_here: set[tuple[str, str]]) -> dict[tuple[str, str], groups.GroupWork]:
    """Give each placed notebook to the rest of its student's group; (member, lesson) -> the group work."""
    if run.roster is None:
        return {}
    shared = {}
    for student, lesson in sorted(placed_here):
        if (student, lesson) in shared:
            continue  # given by another member
        group, members = run.roster.group_of(student)
        given = [m for m in members if (m, lesson) not in run.found and (m, lesson) not in shared]  # not their own
        for member in given:
            _copy(run.root, student, member, lesson)
            shared[(member, lesson)] = groups.GroupWork(group, student)
            run.placed[(member, lesson)] = run.placed[(student, lesson)]
            run.report.placed.append(Item(f"group {group}", member, lesson,
                                          f"the notebook {student} handed in for the group"))
        if given:
            shared[(student, lesson)] = groups.GroupWork(group, student)
    groups.record(run.root, shared)
    return shared


def _copy(root: str, student: str, member: str, lesson: str) -> None:
    source = os.path.join(root, "submitted", student, lesson)
    target = os.path.join(root, "submitted", member, lesson)
    notebook = os.path.join(target, f"{lesson}.ipynb")
    if os.path.exists(notebook):
        with open(notebook, "rb") as mine, open(os.path.join(source, f"{lesson}.ipynb"), "rb") as theirs:
            if mine.read() == theirs.read():
                return
        keep_replaced(root, member, lesson)
    os.makedirs(target, exist_ok=True)
    for name in (f"{lesson}.ipynb", "timestamp.txt"):
        if os.path.exists(os.path.join(source, name)):
            shutil.copyfile(os.path.join(source, name), os.path.join(target, name))
        elif os.path.exists(os.path.join(target, name)):
            os.remove(os.path.join(target, name))
    clear_problem(root, member, lesson)
