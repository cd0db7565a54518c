"""collect and what a student's upload holds: theirs alone, bounded per student, every name shown inert.

Each test builds a small class download (the LMS's naming, honest classmates beside the upload under
test) and checks that the upload is its uploader's or refused with its reason, that the classmates are
placed as if it were not there, and that nothing is written outside the course. The whole week on such
a class, graded, is tests/test_hostile_uploads.py.
"""
import argparse
import os
import stat
import zipfile

import nbformat
import pytest

from autograder.workflow.collect.download import collect
from autograder.workflow.collect.command import run
from autograder.workflow.command_arguments import collect as add_arguments
from zip_tricks import (make_zip, symlink_entry, with_bad_crc, with_declared_size, with_flag, with_invalid_utf8_name)

LESSONS = ["01_graph", "02_backward", "03_no_grad"]
ADA, CHARLES = "lovelaceada_48211_7001_02_backward.ipynb", "babbagecharles_48212_7002_02_backward.ipynb"


def notebook(text: str) -> bytes:
    cell = nbformat.v4.new_code_cell(text)
    cell["id"] = "only-cell"
    return nbformat.writes(nbformat.v4.new_notebook(cells=[cell])).encode()


@pytest.fixture
def course(tmp_path):
    root = tmp_path / "course"
    for lesson in LESSONS:
        (root / "source" / lesson).mkdir(parents=True)
        (root / "source" / lesson / f"{lesson}.ipynb").write_bytes(notebook("pass"))
    return root


def configure(course, *lines: str) -> None:
    (course / "nbgrader_config.py").write_text("c = get_config()\n" + "\n".join(lines) + "\n")


@pytest.fixture
def download(tmp_path):
    def make(entries: dict, name="submissions.zip") -> str:
        path = tmp_path / name
        path.write_bytes(make_zip(entries, zipfile.ZIP_STORED))
        return str(path)
    return make


def submitted(course, student, lesson="02_backward"):
    return course / "submitted" / student / lesson / f"{lesson}.ipynb"


def everything_under(path) -> set:
    return {p for p in path.rglob("*")}


def honest(download, extra: dict, name="submissions.zip") -> str:
    """A Canvas download of 02_backward: Ada and Charles, honest, beside ``extra``."""
    return download({ADA: notebook("ada"), CHARLES: notebook("charles"), **extra}, name)


def assert_classmates_placed(course, report):
    assert submitted(course, "48211").read_bytes() == notebook("ada")
    assert submitted(course, "48212").read_bytes() == notebook("charles")
    assert not [i for i in report.superseded + report.kept_both + report.conflicts if i.student in ("48211", "48212")]


# -- whose it is: the upload's naming alone ---------------------------------------------------------

def test_a_notebook_in_a_zip_named_like_a_classmates_upload_is_the_uploaders(course, download):
    """Jane's zip holds a notebook named as Canvas would name Charles's, with a larger attachment id."""
    inner = make_zip({"babbagecharles_48212_9999999_02_backward.ipynb": notebook("jane's, in Charles's name")})
    report = collect(honest(download, {"doejane_5120_7003_work.zip": inner}), str(course))
    assert_classmates_placed(course, report)
    assert submitted(course, "5120").read_bytes() == notebook("jane's, in Charles's name")
    assert report.ok, report.lines()


def test_a_moodle_subfolder_named_like_a_classmates_folder_is_the_uploaders(course, download):
    source = download({
        "John Smith_2046_assignsubmission_file/02_backward.ipynb": notebook("john"),
        "Jane Doe_2047_assignsubmission_file/John Smith_2046_assignsubmission_file/02_backward.ipynb": notebook("jane")})
    report = collect(source, str(course))
    assert submitted(course, "2046").read_bytes() == notebook("john")
    assert submitted(course, "2047").read_bytes() == notebook("jane")
    assert report.ok and not report.conflicts, report.lines()


def test_a_moodle_download_of_one_student_is_still_that_students(course, download):
    """One late submitter downloaded alone: their folder is not taken for a wrapper of the one inside."""
    source = download({
        "Jane Doe_2047_assignsubmission_file/John Smith_2046_assignsubmission_file/02_backward.ipynb": notebook("jane")})
    report = collect(source, str(course))
    assert [i.student for i in report.placed] == ["2047"] and not (course / "submitted" / "2046").exists()


def test_a_folder_inside_a_student_folder_is_the_students(course, tmp_path):
    source = tmp_path / "download"
    for path, text in [("alice/bob/02_backward.ipynb", "alice's"), ("bob/02_backward.ipynb", "bob's")]:
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_bytes(notebook(text))
    report = collect(str(source), str(course))
    assert submitted(course, "alice").read_bytes() == notebook("alice's")
    assert submitted(course, "bob").read_bytes() == notebook("bob's") and report.ok


def test_with_a_roster_a_lone_student_folder_is_never_a_wrapper(course, tmp_path):
    source = tmp_path / "download"
    (source / "alice" / "bob").mkdir(parents=True)
    (source / "alice" / "bob" / "02_backward.ipynb").write_bytes(notebook("alice's"))
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id\nalice\nbob\n")
    report = collect(str(source), str(course), roster=str(roster))
    assert [i.student for i in report.placed] == ["alice"] and not (course / "submitted" / "bob").exists()


def test_blackboard_names_are_read_at_blackboards_own_attempt(course, download, tmp_path):
    """A file named to look like Bob's attempt, and one named like a receipt that gives Bob's file away."""
    stamp, later = "2026-03-05-18-40-31", "2026-03-05-20-00-00"
    receipt = (f"Name: Mallory Cheat (mallory)\nFiles:\n\tFilename: Lesson 2_bob_attempt_{later}_02_backward.ipynb\n")
    source = download({
        f"Lesson 2_bob_attempt_{later}_02_backward.ipynb": notebook("bob"),
        f"Lesson 2_mallory_attempt_{stamp}_x_bob_attempt_2099-01-01-00-00-00_02_backward.ipynb": notebook("mallory"),
        f"Lesson 2_mallory_attempt_{stamp}_y_attempt_{stamp}.txt": receipt.encode()})
    roster = tmp_path / "roster.csv"
    roster.write_text("student_id,username\nbob,bob\nmallory,mallory\n")
    report = collect(source, str(course), roster=str(roster))
    assert submitted(course, "bob").read_bytes() == notebook("bob")
    assert submitted(course, "mallory").read_bytes() == notebook("mallory")
    assert [(i.student, i.source.endswith(".txt")) for i in report.also] == [("mallory", True)], report.lines()
    assert (submitted(course, "bob").parent / "timestamp.txt").read_text() == "2026-03-05 20:00:00.000000 UTC\n"


# -- when: the upload's mark and time carry to what is inside it -------------------------------------

def test_a_late_canvas_zip_is_late_for_what_it_holds(course, download):
    report = collect(honest(download, {"doejane_LATE_5120_7003_work.zip": make_zip({"02_backward.ipynb": notebook("j")})}),
                     str(course))
    assert submitted(course, "5120").read_bytes() == notebook("j")
    assert "late, time unknown (the LMS says late, not when): no time is recorded, and " \
           "c.LateWork.time_unknown_penalty decides the penalty: 5120/02_backward" in report.notes  # the LATE mark reached the notebook inside


def test_a_blackboard_zip_carries_its_attempts_time(course, download):
    inner = make_zip({"work/02_backward.ipynb": notebook("j")}, zipfile.ZIP_STORED)
    collect(download({"Lesson 2_jdoe_attempt_2026-03-05-23-10-00_work.zip": inner}), str(course))
    assert (submitted(course, "jdoe").parent / "timestamp.txt").read_text() == "2026-03-05 23:10:00.000000 UTC\n"


# -- one upload costs only its student --------------------------------------------------------------

DAMAGE = {"bad crc in a receipt-named entry": "could not be read from the zip (BadZipFile: Bad CRC-32",
          "bad crc in the notebook": "02_backward.ipynb could not be read from the zip (BadZipFile: Bad CRC-32",
          "encrypted": "work.zip/02_backward.ipynb is encrypted",
          "truncated zip": "work.zip is not a readable zip (BadZipFile", "not a zip": "work.zip is not a readable zip",
          "name not utf-8": "is not a readable zip (UnicodeDecodeError", "lying size": "(BadZipFile: Bad CRC-32"}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_upload_is_its_students_failure_and_everyone_else_is_collected(course, download, damage):
    stamp = "2026-03-05-18-40-31"
    plain = {f"Lesson 2_jsmith_attempt_{stamp}.txt": b"Name: Jane (jdoe)\n", "02_backward.ipynb": notebook("j")}
    if damage == "bad crc in a receipt-named entry":
        zipped = with_bad_crc(make_zip(plain, zipfile.ZIP_STORED), f"Lesson 2_jsmith_attempt_{stamp}.txt")
    elif damage == "bad crc in the notebook":
        zipped = with_bad_crc(make_zip(plain, zipfile.ZIP_STORED), "02_backward.ipynb")
    elif damage == "encrypted":
        zipped = with_flag(make_zip(plain), "02_backward.ipynb", 0x1)
    elif damage == "truncated zip":
        zipped = make_zip(plain)[:-200]
    elif damage == "not a zip":
        zipped = notebook("a notebook named .zip")
    elif damage == "name not utf-8":
        zipped = with_invalid_utf8_name(make_zip({"02_backward_é.ipynb": notebook("j")}))
    else:
        zipped = with_declared_size(make_zip(plain, zipfile.ZIP_STORED), "02_backward.ipynb", 10)
    source = honest(download, {"doejane_5120_7003_work.zip": zipped})
    before = everything_under(course.parent)
    report = collect(source, str(course))
    assert_classmates_placed(course, report)
    assert not (course / "submitted" / "5120").exists()
    [refused] = [i for i in report.refused if i.student == "5120"]
    assert refused.lesson == "02_backward" and DAMAGE[damage] in refused.why, report.lines()
    reason = (course / "ungraded" / "5120" / "02_backward" / "reason.txt").read_text()
    assert reason.startswith("nothing handed in could be graded: work.zip (a zip): ")
    written = everything_under(course.parent) - before
    assert all(str(p).startswith(str(course)) for p in written) and not list(course.glob(".collecting-*"))


def test_a_zip_bomb_is_stopped_at_the_students_budget(course, download):
    configure(course, f"c.Collect.max_upload_bytes = {3 * 1024**2}")
    bomb = make_zip({f"part{i}.bin": bytes(2 * 1024**2) for i in range(12)})  # 24 MiB of zeros, 25 KiB zipped
    report = collect(honest(download, {"doejane_5120_7003_work.zip": bomb}), str(course))
    assert_classmates_placed(course, report)
    [refused] = [i for i in report.refused if i.student == "5120"]
    assert "unpacks to more than 3.0 MiB (c.Collect.max_upload_bytes)" in refused.why


def test_a_zip_declaring_more_than_the_budget_is_refused_before_it_is_read(course, download):
    configure(course, f"c.Collect.max_upload_bytes = {1024**2}")
    zipped = with_declared_size(make_zip({"02_backward.ipynb": notebook("j")}, zipfile.ZIP_STORED),
                                "02_backward.ipynb", 0xFFFFFFF0)
    report = collect(honest(download, {"doejane_5120_7003_work.zip": zipped}), str(course))
    assert_classmates_placed(course, report)
    assert "more than 1.0 MiB" in next(i.why for i in report.refused if i.student == "5120")


def test_too_many_entries_are_refused_before_zipfile_reads_them_all(course, download):
    configure(course, "c.Collect.max_upload_entries = 50")
    many = make_zip({f"f{i}.txt": b"" for i in range(500)})
    report = collect(honest(download, {"doejane_5120_7003_work.zip": many}), str(course))
    assert_classmates_placed(course, report)
    assert "holds more than 50 files (c.Collect.max_upload_entries)" in next(
        i.why for i in report.refused if i.student == "5120")


def test_zip64_and_zips_in_zips_to_the_configured_depth(course, download):
    configure(course, "c.Collect.max_upload_depth = 2")
    inner = make_zip({"02_backward.ipynb": notebook("j")}, zip64=True)
    deepest = make_zip({"03_no_grad.ipynb": notebook("deep")})
    report = collect(honest(download, {"doejane_5120_7003_work.zip": make_zip({"a.zip": inner,
                                                                               "b.zip": make_zip({"c.zip": deepest})})}),
                     str(course))
    assert submitted(course, "5120").read_bytes() == notebook("j")
    assert any(i.source.endswith("b.zip/c.zip") and "not opened" in i.why for i in report.skipped)


def test_links_and_escaping_paths_in_a_students_zip_are_left_out(course, download):
    zipped = make_zip({"02_backward.ipynb": notebook("j"), "grades.txt": symlink_entry("../../../gradebook.db"),
                       "../../../../etc/evil.ipynb": notebook("x"), "/abs.ipynb": notebook("x"),
                       "..\\..\\win.ipynb": notebook("x")})
    report = collect(honest(download, {"doejane_5120_7003_work.zip": zipped}), str(course))
    assert submitted(course, "5120").read_bytes() == notebook("j")
    left = {i.source.split("work.zip/")[1]: i.why for i in report.skipped}
    assert "symbolic link" in left["grades.txt"] and len(left) == 4
    assert all("leaves the zip" in why for name, why in left.items() if name != "grades.txt")


def test_names_differing_in_case_or_normalisation_are_all_kept(course, download):
    zipped = make_zip({"02_backward.ipynb": notebook("one"), "02_Backward.ipynb": notebook("two"),
                       "Notes.pdf": b"%PDF a", "notes.pdf": b"%PDF b", "r\u00e9sum\u00e9.md": b"nfc",
                       "re\u0301sume\u0301.md": b"nfd"})
    report = collect(honest(download, {"doejane_5120_7003_work.zip": zipped}), str(course))
    assert len([i for i in report.conflicts if i.student == "5120"]) == 2  # nothing tells which notebook
    kept = course / "ungraded" / "5120" / "02_backward" / "uploads"
    assert sorted(p.read_bytes() for p in kept.iterdir()) == sorted(
        [notebook("one"), notebook("two"), b"%PDF a", b"%PDF b", b"nfc", b"nfd"]), "nothing lost"
    assert {"Notes.pdf", "notes (2).pdf", "r\u00e9sum\u00e9.md", "r\u00e9sum\u00e9 (2).md"} <= {p.name for p in kept.iterdir()}


def test_a_link_in_a_folder_download_is_not_followed(course, tmp_path):
    secret = tmp_path / "solutions.ipynb"
    secret.write_bytes(notebook("the instructor's solution"))
    source = tmp_path / "download"
    (source / "alice").mkdir(parents=True)
    os.symlink(secret, source / "alice" / "02_backward.ipynb")
    (source / "bob").mkdir()
    (source / "bob" / "02_backward.ipynb").write_bytes(notebook("bob"))
    os.mkfifo(source / "bob" / "notes.txt")
    report = collect(str(source), str(course))
    assert not (course / "submitted" / "alice").exists() and submitted(course, "bob").read_bytes() == notebook("bob")
    assert {i.source: i.why.split(":")[0] for i in report.skipped} == {
        "alice/02_backward.ipynb": "a symbolic link in the download", "bob/notes.txt": "not a regular file (a pipe, socket or device)"}


def test_every_printed_line_escapes_control_characters(course, download, capsys):
    zipped = make_zip({"02_backward.ipynb\nplaced 48212/02_backward from x": notebook("j"),
                       "\x1b[2Kevil\u202egnp.pdf": b"%PDF"})
    source = honest(download, {"doejane_5120_7003_w\x1b]0;owned\x07.zip": zipped})
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args([source])
    args.root = str(course)
    run(args)
    printed = capsys.readouterr().out
    assert not any(c in printed for c in "\x1b\x07\u202e")
    assert [line for line in printed.splitlines() if line.startswith("placed 48212")] == [
        f"placed 48212/02_backward from {CHARLES}"]
    assert "\\nplaced 48212/02_backward from x" in printed and "\\x1b[2Kevil\\u202egnp.pdf" in printed


def test_nothing_of_a_refused_upload_stays_in_the_course(course, download):
    configure(course, f"c.Collect.max_upload_bytes = {1024**2}")
    report = collect(honest(download, {"doejane_5120_7003_work.zip": make_zip({f"{i}.bin": bytes(600_000)
                                                                              for i in range(3)})}), str(course))
    assert report.refused and not list(course.glob(".collecting-*"))
    assert not (course / "ungraded" / "5120" / "02_backward" / "uploads").exists() or not any(
        (course / "ungraded" / "5120" / "02_backward" / "uploads").iterdir())
    assert stat.S_ISDIR(os.stat(course / "submitted").st_mode)


def test_names_that_are_not_utf8_in_a_folder_download_are_shown_escaped(course, tmp_path, capsys):
    source = tmp_path / "download"
    for student in ("alice", "bob"):
        (source / student).mkdir(parents=True)
        (source / student / "02_backward.ipynb").write_bytes(notebook(student))
    with open(os.path.join(os.fsencode(source / "bob"), b"notes\xff\x1b.pdf"), "wb") as handle:
        handle.write(b"%PDF")
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args([str(source)])
    args.root = str(course)
    assert run(args) == 0
    printed = capsys.readouterr().out
    assert "also handed in bob/02_backward from bob/notes\\udcff\\x1b.pdf" in printed
    assert submitted(course, "alice").read_bytes() == notebook("alice")
    assert [p.name for p in (course / "ungraded" / "bob" / "02_backward" / "uploads").iterdir()] == ["notes_udcff_x1b.pdf"]
