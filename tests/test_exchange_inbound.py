"""collect --exchange: nbgrader's inbound folder, as `nbgrader submit` writes it, lands in submitted/.

The inbound folders are built here by hand, named and filled as nbgrader 0.9's ExchangeSubmit does
(student+lesson+timestamp+random, with timestamp.txt and submission_secret.txt, the time being the
moment of submitting); who owns each is set with chown (the tests run as root; without root the
ownership tests skip). The real round trip through a hub, with real accounts, is
tests/browser/test_hub.py; a student's tricks on their own folder, as that student's account, are
tests/test_hostile_uploads.py's.
"""
import argparse
import os
from datetime import datetime, timezone

import nbformat
import pytest

from autograder.workflow.collect.download import CollectError, CollectReport
from autograder.workflow.collect.command import run
from autograder.workflow.command_arguments import collect as add_arguments
from autograder.workflow.collect.exchange import collect, latest_submissions
from autograder.workflow.lms_settings import Collect

LESSON = "02_backward"
ALICE, BOB = 60901, 60902  # uids no account here has; the tests map names to them
UIDS = {"alice": ALICE, "bob": BOB}
NOW = None  # submit() writes the moment it submits, as nbgrader's submit does
LONG_AGO = "2020-03-01 10:00:00.000001 UTC"
root_only = pytest.mark.skipif(os.geteuid() != 0, reason="setting who owns a submission needs root")


def notebook(text: str) -> bytes:
    cell = nbformat.v4.new_code_cell(text)
    cell["id"] = "only-cell"
    return nbformat.writes(nbformat.v4.new_notebook(cells=[cell])).encode()


@pytest.fixture
def course(tmp_path):
    root = tmp_path / "course"
    for lesson in ("01_graph", LESSON):
        (root / "source" / lesson).mkdir(parents=True)
        (root / "source" / lesson / f"{lesson}.ipynb").write_bytes(notebook("pass"))
    (root / "nbgrader_config.py").write_text(
        f"c = get_config()\nc.CourseDirectory.course_id = 'demo'\nc.Exchange.root = {str(tmp_path / 'exchange')!r}\n")
    (tmp_path / "exchange" / "demo" / "inbound").mkdir(parents=True)
    (tmp_path / "exchange" / "demo" / "outbound" / LESSON).mkdir(parents=True)
    return root


def inbound(course):
    return course.parent / "exchange" / "demo" / "inbound"


def now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S.%f %Z")


def submit(course, student, when, text, lesson=LESSON, owner=None, secret="s3cret"):
    """A submission folder as nbgrader's submit leaves it, owned by ``owner`` (default: the student);
    ``when`` (timestamp.txt and the folder's name) is the moment of submitting unless given."""
    when = when or now()
    folder = inbound(course) / f"{student}+{lesson}+{when}+Rnd{len(os.listdir(inbound(course)))}"
    folder.mkdir()
    (folder / f"{lesson}.ipynb").write_bytes(notebook(text))
    (folder / "timestamp.txt").write_text(when)
    (folder / "submission_secret.txt").write_text(secret)
    uid = UIDS.get(owner or student)
    if uid is not None and os.geteuid() == 0:
        for path in [folder, *folder.iterdir()]:
            os.chown(path, uid, -1)
    return folder


@pytest.fixture(autouse=True)
def accounts(monkeypatch):
    """alice and bob are system users, as on a hub (no real account is made here)."""
    monkeypatch.setattr("autograder.workflow.collect.exchange._uid_of", UIDS.get)
    if os.geteuid() != 0:  # without root every file is ours: the names map to our uid
        monkeypatch.setattr("autograder.workflow.collect.exchange._uid_of", lambda name: os.geteuid())


def placed(course, student, lesson=LESSON):
    return course / "submitted" / student / lesson


def test_each_students_latest_submission_is_placed_with_its_time_and_secret(course):
    submit(course, "alice", NOW, "first")
    latest = submit(course, "alice", NOW, "second", secret="latest-secret")
    submit(course, "bob", NOW, "bobs")
    report = collect(str(course))
    assert [(i.student, i.lesson) for i in report.placed] == [("alice", LESSON), ("bob", LESSON)]
    assert len(report.superseded) == 1 and "kept alice+" in report.superseded[0].why
    assert (placed(course, "alice") / f"{LESSON}.ipynb").read_bytes() == notebook("second")
    # verbatim: release_feedback files the feedback under this secret, fetch_feedback looks there
    assert (placed(course, "alice") / "timestamp.txt").read_text() == (latest / "timestamp.txt").read_text() + "\n"
    assert (placed(course, "alice") / "submission_secret.txt").read_text() == "latest-secret"
    assert report.ok and collect(str(course)).unchanged  # a second collect changes nothing


def test_a_resubmission_replaces_an_older_one_but_not_a_newer_one(course):
    submit(course, "alice", NOW, "first")
    collect(str(course))
    submit(course, "alice", NOW, "second")
    report = collect(str(course))
    assert report.placed[0].why == (f"replaced an older submission; the one before is kept in "
                                    f"ungraded/alice/{LESSON}/replaced/1/{LESSON}.ipynb")
    assert (course / "ungraded" / "alice" / LESSON / "replaced" / "1" / f"{LESSON}.ipynb").read_bytes() == notebook("first")
    (placed(course, "alice") / "timestamp.txt").write_text("2099-04-01 00:00:00.000000 UTC")
    (placed(course, "alice") / f"{LESSON}.ipynb").write_bytes(notebook("placed by hand"))
    report = collect(str(course))
    assert not report.ok and "not older" in report.conflicts[0].why


@root_only
def test_a_submission_in_a_classmates_name_is_not_placed(course):
    """nbgrader's `submit --student bob`, run by alice: a later folder in bob's name, owned by alice."""
    submit(course, "bob", NOW, "bob's own")
    forged = submit(course, "bob", NOW, "alice's", owner="alice")
    report = collect(str(course))
    assert (placed(course, "bob") / f"{LESSON}.ipynb").read_bytes() == notebook("bob's own")
    refused, = report.unplaced
    assert refused.source == forged.name and "not by bob's own account" in refused.why and "60901" in refused.why


@root_only
def test_a_file_swapped_in_by_another_account_is_not_placed(course):
    """A submission folder is world-writable (nbgrader makes it 0777): a file in it may be someone else's."""
    folder = submit(course, "bob", NOW, "bob's")
    os.chown(folder / f"{LESSON}.ipynb", ALICE, -1)
    report = collect(str(course))
    assert not report.placed and "written by uid 60901, not by bob" in report.unplaced[0].why


def test_a_link_is_never_followed(course, tmp_path):
    secret = tmp_path / "gradebook.db"
    secret.write_text("the instructor's")
    folder = submit(course, "alice", NOW, "x")
    os.remove(folder / f"{LESSON}.ipynb")
    os.symlink(secret, folder / f"{LESSON}.ipynb")
    report = collect(str(course))
    assert not (placed(course, "alice") / f"{LESSON}.ipynb").exists()
    assert "holds a 02_backward.ipynb that is a link, not a file: not followed" in report.refused[0].why
    assert "a link" in (course / "ungraded" / "alice" / LESSON / "reason.txt").read_text(), "alice is told why"
    linked = inbound(course) / f"bob+{LESSON}+{now()}+Lnk"
    os.symlink(folder, linked)
    assert "not followed" in collect(str(course)).unplaced[-1].why


def test_a_notebook_over_the_limit_is_refused_unread_and_its_reason_kept(course):
    (course / "nbgrader_config.py").write_text((course / "nbgrader_config.py").read_text()
                                               + "c.Collect.max_notebook_bytes = 100\n")
    submit(course, "alice", NOW, "x" * 500)
    report = collect(str(course))
    assert not report.placed and "over the limit" in report.refused[0].why
    assert "over the limit" in (course / "ungraded" / "alice" / LESSON / "reason.txt").read_text()


def test_odd_folders_are_listed_with_why(course):
    submit(course, "alice", NOW, "x", lesson="09_unknown")
    (inbound(course) / "not-a-submission").mkdir()
    (inbound(course) / f"carol+{LESSON}+yesterday+R").mkdir()
    report = collect(str(course))
    whys = [i.why for i in report.unplaced + report.skipped]
    assert any("names no lesson" in w for w in whys) and any("not an nbgrader submission" in w for w in whys)
    assert any("'yesterday' does not read" in w for w in whys)


def test_unreadable_notebooks_are_placed_and_said(course):
    folder = submit(course, "alice", NOW, "x")
    (folder / f"{LESSON}.ipynb").write_bytes(b"{not json")
    report = collect(str(course))
    assert report.placed and report.unreadable


def test_a_roster_names_who_is_missing_from_the_released_lessons(course, tmp_path):
    submit(course, "alice", NOW, "x")
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id\nalice\nbob\n")
    report = collect(str(course), roster=str(roster))
    assert report.missing == [("bob", LESSON)]  # 01_graph is not released: nobody misses it


def test_the_latest_is_the_one_that_arrived_last_whatever_its_name_says(course):
    report = CollectReport()
    submit(course, "alice", "2099-03-10 08:00:00.000000 UTC", "claims to be the latest")
    submit(course, "alice", NOW, "arrived last")
    kept, = latest_submissions(str(inbound(course)), [LESSON], Collect(), report, check_owner=False)
    assert kept.notebook == notebook("arrived last")
    assert "claims" not in kept.distrusted and not kept.distrusted


def _recorded(course) -> float:
    """The submission time in submitted/, as nbgrader's late penalty reads it."""
    from nbgrader.utils import parse_utc
    text = (placed(course, "alice") / "timestamp.txt").read_text()
    return parse_utc(text).replace(tzinfo=timezone.utc).timestamp()


def test_a_backdated_timestamp_is_reported_and_the_arrival_recorded(course):
    """The folder is the student's: its name and timestamp.txt say 2020, the exchange saw it arrive now."""
    folder = submit(course, "alice", LONG_AGO, "handed in late")
    arrived = os.lstat(folder / f"{LESSON}.ipynb").st_ctime
    report = collect(str(course))
    assert report.placed and not report.ok, "a forged time is for the instructor to see"
    item, = report.distrusted
    assert f"its timestamp.txt says {LONG_AGO}, but the notebook arrived at" in item.why
    assert _recorded(course) == pytest.approx(arrived, abs=1e-3)
    assert any(line.startswith("TIME NOT TRUSTED alice/02_backward from alice+") for line in report.lines())


@pytest.mark.parametrize("trick", ["link", "fifo", "missing", "not a time", "huge"])
def test_a_timestamp_file_that_is_no_small_file_of_the_students_is_not_read(course, tmp_path, trick):
    folder = submit(course, "alice", NOW, "x")
    stamp = folder / "timestamp.txt"
    os.remove(stamp)
    if trick == "link":
        (tmp_path / "elsewhere").write_text(LONG_AGO)
        os.symlink(tmp_path / "elsewhere", stamp)
    elif trick == "fifo":
        os.mkfifo(stamp)  # reading it would wait for a writer forever
    elif trick == "not a time":
        stamp.write_text("yesterday, honestly")
    elif trick == "huge":
        stamp.write_text(now() + " " * 10_000)
    arrived = os.lstat(folder / f"{LESSON}.ipynb").st_ctime
    report = collect(str(course))
    assert (placed(course, "alice") / f"{LESSON}.ipynb").read_bytes() == notebook("x")
    assert _recorded(course) == pytest.approx(arrived, abs=1e-3)
    item, = report.distrusted
    assert "the arrival" in item.why and "recorded" in item.why


def test_a_time_once_recorded_stays_while_the_notebook_is_the_same(course):
    """A later collect keeps the time first recorded: a change of the file's metadata (a chmod by an
    administrator moves its ctime) does not make it later."""
    (course / "nbgrader_config.py").write_text((course / "nbgrader_config.py").read_text()
                                               + "c.ExchangeCollect.time_tolerance = 0\n")
    folder = submit(course, "alice", LONG_AGO, "x")
    collect(str(course))
    first = (placed(course, "alice") / "timestamp.txt").read_text()
    os.chmod(folder / f"{LESSON}.ipynb", 0o640)
    again = collect(str(course))
    assert again.unchanged and not again.distrusted
    assert (placed(course, "alice") / "timestamp.txt").read_text() == first


def test_names_with_control_characters_cannot_forge_a_line(course, capsys):
    forged = inbound(course) / f"alice+{LESSON}+{now()}\nplaced bob\x1b[2K+R1"
    forged.mkdir()
    (forged / f"{LESSON}.ipynb").write_bytes(notebook("x"))
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--exchange"])
    args.root = str(course)
    run(args)
    printed = capsys.readouterr().out
    assert "\x1b" not in printed and not any(line.startswith("placed bob") for line in printed.splitlines())
    assert "\\nplaced bob\\x1b[2K" in printed


def test_the_command_reads_the_exchange_named_in_nbgrader_config(course, capsys):
    submit(course, "alice", NOW, "x")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["--exchange"])
    args.root = str(course)
    assert run(args) == 0
    assert "placed alice/02_backward" in capsys.readouterr().out
    neither = parser.parse_args([])
    neither.root = str(course)
    assert run(neither) == 2
    assert "--exchange" in capsys.readouterr().out
    os.rename(inbound(course), inbound(course).with_name("gone"))
    with pytest.raises(CollectError, match="release_assignment"):
        collect(str(course))
