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
"""
import re
from datetime import datetime, timezone

from zoneinfo import ZoneInfo

from . import Context, Facts, Reader

STAMP = r"\d{4}(?:-\d\d){5}"
_RECEIPT = re.compile(r"[^/]+_attempt_" + STAMP + r"\.txt")
_NAME = re.compile(r"^\s*Name:.*\(([^()\s]+)\)\s*$", re.MULTILINE)
_FILENAME = re.compile(r"^\s*Filename:\s*(.+?)\s*$", re.MULTILINE)


class Blackboard(Reader):
    name = "blackboard"
    about = ("Blackboard Grade Center 'Assignment File Download': Assignment_username_attempt_"
             "YYYY-MM-DD-HH-MM-SS_file, with a .txt receipt per attempt naming the username exactly")
    example = "Lesson 2_jsmith7_attempt_2024-03-05-14-22-09_02_backward.ipynb"
    pattern = re.compile(r"(?P<assignment>[^/]+)_(?P<student>[^/_]+)_attempt_"
                         r"(?P<attempt>" + STAMP + r")_(?P<filename>.+)")
    roster_columns = ("username", "login_id", "email")

    def is_receipt(self, path: str) -> bool:
        return bool(_RECEIPT.fullmatch(path.rsplit("/", 1)[-1]))

    def read_receipt(self, path: str, data: bytes, context: Context) -> dict[str, Facts]:
        text = data.decode("utf-8", errors="replace")
        user = _NAME.search(text)
        if not user:
            return {}
        return {name.rsplit("/", 1)[-1]: Facts(user.group(1)) for name in _FILENAME.findall(text)}

    def candidates(self, match: re.Match) -> list[str]:
        """Every username the name could hold, shortest first: 'Lesson 3_g_hopper' -> hopper, g_hopper, 3_g_hopper."""
        words = f"{match['assignment']}_{match['student']}".split("_")
        return ["_".join(words[start:]) for start in range(len(words) - 1, 0, -1)]

    def submitted_at(self, match: re.Match, context: Context) -> datetime:
        local = datetime.strptime(match["attempt"], "%Y-%m-%d-%H-%M-%S").replace(tzinfo=ZoneInfo(context.timezone))
        return local.astimezone(timezone.utc)


READER = Blackboard()
