"""D2L Brightspace's assignment (dropbox folder) download: the selected submissions, flat, and an index.html.

Each file is named ``subid-userid - Name - Mon D, YYYY HMM AM - filename``:

    148823-60412 - Hopper, Grace - Mar 5, 2026 640 PM - 03_no_grad.ipynb

Every attempt is kept, each with its own submission id and time, so the latest time wins (then the
larger submission id). The time is in the time zone of the account that downloaded it
(``c.Collect.timezone``), to the minute, hours and minutes written together ("640 PM" is 6:40 PM).
``index.html`` lists the same submissions for a person to read; it is ignored quietly.

Not confirmed from D2L's documentation: which of the two numbers is the user id (read here as the
second, the roster's ``d2l_id``), and whether the name is "Last, First" or "First Last" (both match
the roster's ``name``, which is tried when no id matches).
"""
import re
from datetime import datetime, timezone

from zoneinfo import ZoneInfo

from . import Context, Reader

_WHEN = r"[A-Z][a-z]{2} \d{1,2}, \d{4} \d{3,4} [AP]M"


class D2L(Reader):
    name = "d2l"
    about = "D2L Brightspace assignment download: subid-userid - Name - Mon D, YYYY HMM AM - file, and index.html"
    example = "148823-60412 - Hopper, Grace - Mar 5, 2026 640 PM - 02_backward.ipynb"
    pattern = re.compile(r"(?P<submission>\d{1,20})-(?P<student>\d{1,20}) - (?P<name>[^/]+?) - (?P<when>" + _WHEN + r")"
                         r" - (?P<filename>[^/]+)")
    roster_columns = ("d2l_id",)

    def is_receipt(self, path: str) -> bool:
        return path.rsplit("/", 1)[-1].lower() == "index.html"

    def attempt(self, match: re.Match) -> int:
        return int(f"{self._local(match):%Y%m%d%H%M}{int(match['submission']):012d}")

    def submitted_at(self, match: re.Match, context: Context) -> datetime:
        return self._local(match).replace(tzinfo=ZoneInfo(context.timezone)).astimezone(timezone.utc)

    @staticmethod
    def _local(match: re.Match) -> datetime:
        day, clock, half = match["when"].rsplit(" ", 2)
        hour, minute = int(clock[:-2]), int(clock[-2:])
        return datetime.strptime(day, "%b %d, %Y").replace(hour=hour % 12 + (12 if half == "PM" else 0), minute=minute)


READER = D2L()
