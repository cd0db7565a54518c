"""Which notebooks were handed in for a group, and by whom (``groups.csv``): said in every export and
the report. ``collect`` writes it when it gives a member's notebook to the rest of their group."""
import csv
import os
from typing import NamedTuple

FILE = "groups.csv"
HEADER = ["student_id", "lesson", "group", "handed_in_by"]


class GroupWork(NamedTuple):
    group: str
    handed_in_by: str

    @property
    def text(self) -> str:
        return f"group {self.group}, handed in by {self.handed_in_by}"


def read_all(root: str) -> dict[tuple[str, str], GroupWork]:
    try:
        with open(os.path.join(root, FILE), newline="", encoding="utf-8") as handle:
            return {(r["student_id"], r["lesson"]): GroupWork(r["group"], r["handed_in_by"])
                    for r in csv.DictReader(handle)}
    except FileNotFoundError:
        return {}


def record(root: str, seen: dict[tuple[str, str], GroupWork]) -> None:
    """Add this collect's group work; a student's own upload this time forgets an earlier group one."""
    if not seen:
        return
    rows = read_all(root) | seen
    path = os.path.join(root, FILE)
    with open(path + ".partial", "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows([*key, *work] for key, work in sorted(rows.items()))
    os.replace(path + ".partial", path)
