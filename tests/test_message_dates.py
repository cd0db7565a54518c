"""A worker reads message dates with Python's parser: the same instants jupyter_client's dateutil gives."""
import itertools
from datetime import datetime

import pytest
from dateutil.parser import isoparse
from jupyter_client import jsonutil
from jupyter_client.session import Session

from autograder.grading import library_patches
from autograder.grading.library_patches import message_dates



@pytest.fixture(autouse=True)
def patched():
    """As a grading worker has them (library_patches.switch, at each task)."""
    library_patches.switch(True)

FRACTIONS = ["", ".1", ".12", ".123", ".1234", ".12345", ".123456"]
ZONES = ["", "Z", "+00:00", "+05:30", "-0800", "+0000", "-11:45"]
DATES = [f"2026-12-02T22:01:56{fraction}{zone}" for fraction, zone in itertools.product(FRACTIONS, ZONES)]


def test_every_date_jupyter_client_recognises_is_read_as_dateutil_reads_it():
    assert all(jsonutil.ISO8601_PAT.match(text) for text in DATES)
    for text in DATES:
        ours, theirs = message_dates.parse(text), isoparse(text)
        assert (ours.replace(tzinfo=None), ours.utcoffset()) == (theirs.replace(tzinfo=None), theirs.utcoffset())


def test_a_workers_sessions_decode_dates_with_it(monkeypatch):
    assert jsonutil._dateutil_parse is message_dates.parse
    read = []
    monkeypatch.setattr(jsonutil, "_dateutil_parse", lambda text: read.append(text) or message_dates.parse(text))
    session = Session(key=b"")
    sent = session.msg("stream", content={"name": "stdout", "text": "2026-12-02T22:01:56Z\n"},
                       parent=session.msg("execute_request", content={"code": "x = 1"}))
    received = session.deserialize(session.feed_identities(session.serialize(sent))[1])
    assert isinstance(received["header"]["date"], datetime) and received["header"]["date"].tzinfo is not None
    assert received["header"]["date"] == isoparse(sent["header"]["date"].isoformat())
    assert len(read) == 2 and received["content"]["text"] == "2026-12-02T22:01:56Z\n"  # content is left as sent


def test_what_pythons_parser_refuses_still_goes_to_dateutil(monkeypatch):
    monkeypatch.setattr(message_dates, "_dateutils", lambda text: ("dateutil", text))
    assert message_dates.parse("not a date") == ("dateutil", "not a date")
