"""Blackboard Learn's Grade Center "Assignment File Download" (all attempts, or the last).

Each attempt's files are named ``Assignment_username_attempt_YYYY-MM-DD-HH-MM-SS_filename``, the time
being the attempt's submission in the server's local time (``c.Collect.timezone``), and a receipt
``Assignment_username_attempt_YYYY-MM-DD-HH-MM-SS.txt`` comes with each attempt:

    Name: Grace Hopper (g_hopper)
    Assignment: Lesson 3
    Date Submitted: Thursday, March 5, 2026 6:40:31 PM EST
    ...
    Files:
        Original filename: 03_no_grad.ipynb
        Filename: Lesson 3_g_hopper_attempt_2026-03-05-18-40-31_03_no_grad.ipynb

An assignment's title and a username may both hold "_", so the file name alone cannot always tell
where one ends: the receipt's ``Name: ... (username)`` is exact and wins. Without a receipt every
split is tried against the roster. The time is read from the name's stamp, not the receipt's
"Date Submitted", whose zone abbreviation (EST, CET) names no zone exactly.

What a student uploads keeps its own name after the stamp, and that name may itself look like an
attempt of someone else (``..._attempt_<stamp>_x_bob_attempt_<stamp>_02_backward.ipynb``) or like a
receipt (``..._attempt_<stamp>_x_attempt_<stamp>.txt``): the naming is read at the first
``_attempt_<stamp>``, which is Blackboard's, and a receipt speaks only for the files of its own attempt.
"""
import re
from datetime import datetime, timezone

from zoneinfo import ZoneInfo

from . import Context, Facts, Reader

STAMP = r"\d{4}(?:-\d\d){5}"
_ATTEMPT = re.compile(r"_attempt_" + STAMP)
_NAME = re.compile(r"^\s*Name:.*\(([^()\s]+)\)\s*$", re.MULTILINE)
_FILENAME = re.compile(r"^\s*Filename:\s*(.+?)\s*$", re.MULTILINE)


class Blackboard(Reader):
    name = "blackboard"
    about = ("Blackboard Grade Center 'Assignment File Download': Assignment_username_attempt_"
             "YYYY-MM-DD-HH-MM-SS_file, with a .txt receipt per attempt naming the username exactly")
    example = "Lesson 2_jsmith7_attempt_2024-03-05-14-22-09_02_backward.ipynb"
    pattern = re.compile(r"(?P<assignment>[^/]+?)_(?P<student>[^/_]+)_attempt_"
                         r"(?P<attempt>" + STAMP + r")_(?P<filename>[^/]+)")
    roster_columns = ("username", "login_id", "email")

    def is_receipt(self, path: str) -> bool:
        name = path.rsplit("/", 1)[-1]
        first = _ATTEMPT.search(name)
        return bool(first) and first.start() > 0 and name[first.end():] == ".txt"

    def read_receipt(self, path: str, data: bytes, context: Context) -> dict[str, Facts]:
        """The username for each file of this receipt's own attempt (named after the receipt's stem)."""
        text = data.decode("utf-8", errors="replace")
        user = _NAME.search(text)
        if not user:
            return {}
        own = path.rsplit("/", 1)[-1][:-len(".txt")] + "_"
        return {name: Facts(user.group(1)) for name in _FILENAME.findall(text) if name.startswith(own) and "/" not in name}

    def candidates(self, match: re.Match) -> list[str]:
        """Every username the name could hold, shortest first: 'Lesson 3_g_hopper' -> hopper, g_hopper, 3_g_hopper."""
        words = f"{match['assignment']}_{match['student']}".split("_")
        return ["_".join(words[start:]) for start in range(len(words) - 1, 0, -1)]

    def submitted_at(self, match: re.Match, context: Context) -> datetime:
        local = datetime.strptime(match["attempt"], "%Y-%m-%d-%H-%M-%S").replace(tzinfo=ZoneInfo(context.timezone))
        return local.astimezone(timezone.utc)


READER = Blackboard()
