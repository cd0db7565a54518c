"""Which feedback pages are current, so that nothing stale is ever returned, and which changed since
the last return.

``feedback`` writes ``feedback/pages.csv``: for each page it wrote, what it was made from (the
submission's status, its final score and the digest of the graded notebook, or the reason it could not
be graded) and the page's own digest. A page is *current* while all of these still hold: a resubmission,
a hand grade, a late penalty worked out again or a file that now fails each make it stale. ``feedback``
removes a page whose submission is held back, not graded yet or missing, and ``export`` puts only
current pages in the LMSs' feedback archives. Each archive written is a return: ``feedback/returned.csv``
keeps what the pages it held were made from, and ``feedback`` lists the pages new, changed (made from
another grading) or removed since.
"""
import csv
import hashlib
import os
from typing import NamedTuple

FOLDER = "feedback"
PAGES = "pages.csv"        # the pages the last feedback wrote, and what each was made from
RETURNED = "returned.csv"  # the pages the last LMS feedback archives held
HEADER = ["student", "lesson", "made_from", "page"]


class Key(NamedTuple):
    student: str
    lesson: str


def page_path(root: str, student: str, lesson: str) -> str:
    return os.path.join(root, FOLDER, student, lesson, f"{lesson}.html")


def _digest(path: str) -> str:
    with open(path, "rb") as handle:
        return hashlib.sha256(handle.read()).hexdigest()


def made_from(root: str, snapshot, status, student: str, lesson: str) -> str:
    """What a page of this submission shows now: its status, its final score, the graded notebook."""
    from .status import GRADED, UNGRADABLE
    if status.state == UNGRADABLE:
        return f"{UNGRADABLE}|{hashlib.sha256(status.why.encode()).hexdigest()}"
    sub = snapshot.submissions.get((student, lesson))
    graded = os.path.join(root, "autograded", student, lesson, f"{lesson}.ipynb")
    if status.state != GRADED or sub is None or not os.path.exists(graded):
        return ""  # no page can be current
    return f"{GRADED}|{snapshot.final_score(sub):g}|{_digest(graded)}"


def _read(path: str) -> dict[Key, tuple[str, str]]:
    try:
        with open(path, newline="", encoding="utf-8") as handle:
            return {Key(r["student"], r["lesson"]): (r["made_from"], r["page"]) for r in csv.DictReader(handle)}
    except FileNotFoundError:
        return {}


def _write(path: str, rows: dict[Key, tuple[str, str]]) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".partial", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows([*key, *value] for key, value in sorted(rows.items()))
    os.replace(path + ".partial", path)


def record(root: str, written: dict[Key, str], removed: set[Key]) -> None:
    """After ``feedback``: the pages it wrote (key -> made_from), and those it removed, forgotten."""
    rows = {key: value for key, value in _read(os.path.join(root, FOLDER, PAGES)).items() if key not in removed}
    for key, source in written.items():
        rows[key] = (source, _digest(page_path(root, *key)))
    _write(os.path.join(root, FOLDER, PAGES), rows)


def written(root: str) -> list[Key]:
    """The pages the feedback command wrote and has not removed."""
    return list(_read(os.path.join(root, FOLDER, PAGES)))


def current(root: str, snapshot, statuses) -> dict[Key, str]:
    """key -> the page's path, for every page still true to its submission."""
    found = {}
    for key, (source, page) in _read(os.path.join(root, FOLDER, PAGES)).items():
        status = statuses.get(tuple(key))
        path = page_path(root, *key)
        if (status is not None and source and os.path.exists(path) and _digest(path) == page
                and made_from(root, snapshot, status, *key) == source):
            found[key] = path
    return found


def remove(root: str, student: str, lesson: str) -> bool:
    """Take a page that no longer fits its submission out of feedback/; whether there was one."""
    path = page_path(root, student, lesson)
    if os.path.exists(path):
        os.remove(path)
        return True
    return False


def mark_returned(root: str, pages: dict[Key, str], lessons: list[str]) -> None:
    """The LMS feedback archives of ``lessons`` hold these pages (key -> path): their last return,
    kept as what each page was made from (a page written again from the same grading is the same page)."""
    path = os.path.join(root, FOLDER, RETURNED)
    made = _read(os.path.join(root, FOLDER, PAGES))
    rows = {key: value for key, value in _read(path).items() if key.lesson not in lessons}
    _write(path, rows | {key: made[key] for key in pages if key in made})


def since_return(root: str) -> tuple[list[Key], list[Key], list[Key]]:
    """(new, changed, removed) pages since the last return; with no return yet, every page is new."""
    returned = _read(os.path.join(root, FOLDER, RETURNED))
    now = {key: source for key, (source, _) in _read(os.path.join(root, FOLDER, PAGES)).items()
           if os.path.exists(page_path(root, *key))}
    new = sorted(key for key in now if key not in returned)
    changed = sorted(key for key in now if key in returned and returned[key][0] != now[key])
    gone = sorted(key for key in returned if key not in now)
    return new, changed, gone
