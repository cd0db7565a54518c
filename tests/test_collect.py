"""collect: LMS bulk downloads (built here as small zips) land in submitted/, and every odd file is reported."""
import argparse
import io
import shutil
import zipfile

import nbformat
import pytest

from autograder.workflow.records import groups, lms_ids, upload_record
from autograder.workflow.collect.lms import READERS, identify
from autograder.workflow.collect.download import CollectError, collect, lesson_named_by
from autograder.workflow.collect.command import run
from autograder.workflow.command_arguments import collect as add_arguments

LESSONS = ["01_graph", "02_backward", "03_no_grad", "04_zero_grad"]
OLD, NEW = (2024, 3, 1, 10, 0, 0), (2024, 3, 2, 10, 0, 0)


def notebook(text: str) -> bytes:
    """The same text gives the same bytes (a fixed cell id), as re-downloading one upload does."""
    cell = nbformat.v4.new_code_cell(text)
    cell["id"] = "only-cell"
    return nbformat.writes(nbformat.v4.new_notebook(cells=[cell])).encode()


def zip_bytes(entries: dict) -> bytes:
    """entries: name -> bytes, or (bytes, date_time) to set the entry's modification time."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, content in entries.items():
            data, when = content if isinstance(content, tuple) else (content, OLD)
            archive.writestr(zipfile.ZipInfo(name, date_time=when), data)
    return buffer.getvalue()


@pytest.fixture
def course(tmp_path):
    root = tmp_path / "course"
    for lesson in LESSONS:
        (root / "source" / lesson).mkdir(parents=True)
        (root / "source" / lesson / f"{lesson}.ipynb").write_bytes(notebook("pass"))
    return root


@pytest.fixture
def download(tmp_path):
    def make(entries: dict, name="submissions.zip"):
        path = tmp_path / name
        path.write_bytes(zip_bytes(entries))
        return str(path)
    return make


def submitted(root, student, lesson):
    return root / "submitted" / student / lesson / f"{lesson}.ipynb"


def roster_file(tmp_path, text):
    path = tmp_path / "roster.csv"
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("naming", READERS, ids=lambda n: n.name)
def test_each_naming_recognises_its_own_example(naming):
    found, match = identify(naming.example)
    assert found is naming
    assert lesson_named_by(match["filename"], LESSONS) == "02_backward"


@pytest.mark.parametrize("name", ["02_backward.ipynb", "02_backward (1).ipynb", "02_backward-2.ipynb",
                                  "02_Backward (2)-1.ipynb"])
def test_lesson_is_read_from_the_original_file_name_despite_copy_suffixes(name):
    assert lesson_named_by(name, LESSONS) == "02_backward"


@pytest.mark.parametrize("name", ["02_backward_final.ipynb", "homework.ipynb", "02_backward.py"])
def test_a_name_that_is_not_a_lesson_names_none(name):
    assert lesson_named_by(name, LESSONS) is None


def test_canvas_download_with_a_late_submission(course, download):
    source = download({"smithjohn_48213_1177302_02_backward.ipynb": notebook("john"),
                       "doejane_LATE_5120_1177400_02_backward-1.ipynb": notebook("jane")})
    report = collect(source, str(course))
    assert report.ok and len(report.placed) == 2
    assert submitted(course, "48213", "02_backward").read_bytes() == notebook("john")
    assert submitted(course, "5120", "02_backward").read_bytes() == notebook("jane")


def test_moodle_download_flat_and_with_a_folder_per_student(course, download):
    source = download({"John Smith_2046_assignsubmission_file_02_backward.ipynb": notebook("john"),
                       "Jane Doe_2047_assignsubmission_file_/02_backward (1).ipynb": notebook("jane"),
                       "Jane Doe_2047_assignsubmission_onlinetext_/onlinetext.html": b"<p>hi</p>"})
    report = collect(source, str(course))
    assert {(i.student, i.lesson) for i in report.placed} == {("2046", "02_backward"), ("2047", "02_backward")}
    assert not report.skipped  # Moodle's online text is Jane's too: kept beside her notebook
    assert [(i.source, i.student, i.lesson) for i in report.also] == [
        ("Jane Doe_2047_assignsubmission_onlinetext_/onlinetext.html", "2047", "02_backward")]
    assert (course / "ungraded" / "2047" / "02_backward" / "uploads" / "onlinetext.html").read_bytes() == b"<p>hi</p>"
    assert report.ok


def test_moodle_4_1_folders_match_the_roster_by_participant_id_and_by_name(course, download, tmp_path):
    """Moodle 4.1+ names a student's folder "Full Name_<participant id>_assignsubmission_file/" (no _ at the end)."""
    source = download({"Jürgen Müller_2046_assignsubmission_file/02_backward.ipynb": notebook("jurgen"),
                       "Ada Lovelace_9999_assignsubmission_file/02_backward.ipynb": notebook("ada")})
    roster = roster_file(tmp_path, "student_id,name,moodle_id\njmuller,Jürgen Müller,2046\n"
                                   "alovelace,Ada Lovelace,\n")
    report = collect(source, str(course), roster=roster)
    assert report.ok and not report.unplaced
    assert submitted(course, "jmuller", "02_backward").read_bytes() == notebook("jurgen")
    assert submitted(course, "alovelace", "02_backward").read_bytes() == notebook("ada")  # by name: id unknown


def test_moodle_blind_marking_matches_by_participant_id_only(course, download, tmp_path):
    source = download({"Participant_2046_assignsubmission_file/02_backward.ipynb": notebook("jurgen"),
                       "Participant_2050_assignsubmission_file/02_backward.ipynb": notebook("who")})
    roster = roster_file(tmp_path, "student_id,name,moodle_id\njmuller,Jürgen Müller,2046\n"
                                   "participant,Participant,\n")  # a name that must not match blind files
    report = collect(source, str(course), roster=roster)
    assert submitted(course, "jmuller", "02_backward").read_bytes() == notebook("jurgen")
    assert [(i.source, i.why) for i in report.unplaced] == [
        ("Participant_2050_assignsubmission_file/02_backward.ipynb",
         "not on the roster: moodle id '2050' matches no moodle_id")]


def test_moodle_participant_ids_are_one_per_assignment_and_kept_for_the_worksheets(course, download, tmp_path):
    """Moodle numbers each student afresh in every assignment: the roster lists them all, and collect
    keeps which number came with which lesson (lms_ids.csv), for export's grading worksheets."""
    roster = roster_file(tmp_path, "student_id,name,moodle_id\njmuller,Jürgen Müller,2046 3190\n"
                                   "enoether,Emmy Noether,2047 3188\n")
    lesson1 = download({"Participant_2046_assignsubmission_file/01_graph.ipynb": notebook("j1"),
                        "Participant_2047_assignsubmission_file/01_graph.ipynb": notebook("e1")}, "one.zip")
    lesson2 = download({"Participant_3190_assignsubmission_file/02_backward.ipynb": notebook("j2")}, "two.zip")
    assert collect(lesson1, str(course), roster=roster).ok and collect(lesson2, str(course), roster=roster).ok
    assert submitted(course, "jmuller", "02_backward").read_bytes() == notebook("j2")
    assert lms_ids.ids_of(str(course), "moodle") == {"01_graph": {"jmuller": "2046", "enoether": "2047"},
                                                     "02_backward": {"jmuller": "3190"}}
    fixed = roster_file(tmp_path, "student_id,name,moodle_id\njmuller,Jürgen Müller,2046\nenoether,Emmy Noether,3190\n")
    collect(lesson2, str(course), roster=fixed, force=True)  # 3190 was Emmy's all along: no longer Jürgen's
    assert lms_ids.ids_of(str(course), "moodle")["02_backward"] == {"enoether": "3190"}
    canvas = download({"mullerjurgen_48213_7001_02_backward.ipynb": notebook("c")}, "canvas.zip")
    collect(canvas, str(course), roster=roster_file(tmp_path, "student_id,canvas_id\njmuller,48213\n"), force=True)
    assert lms_ids.read_all(str(course)).keys() == {("moodle", "01_graph", "jmuller"), ("moodle", "01_graph", "enoether"),
                                                   ("moodle", "02_backward", "enoether")}  # only Moodle's are needed


def test_canvas_anonymous_files_are_matched_by_anonymous_id_or_graded_blind(course, download, tmp_path):
    """An anonymously graded Canvas assignment names files [LATE_]anon_<anonymous id>_<file id>_<name>."""
    files = {"anon_gX7kq_1177302_02_backward.ipynb": notebook("john"),
             "LATE_anon_Rt4wp_1177310_02_backward.ipynb": notebook("ada"),
             "anon_Zz9aa_1177320_02_backward.ipynb": notebook("who")}
    roster = roster_file(tmp_path, "student_id,canvas_id,canvas_anonymous_id\njsmith,48213,Q1w2e gX7kq\n"
                                   "alovelace,48214,Rt4wp\n")
    blind = tmp_path / "blind"
    shutil.copytree(course, blind)
    report = collect(download(files), str(course), roster=roster)
    assert submitted(course, "jsmith", "02_backward").read_bytes() == notebook("john")  # one of several ids
    assert submitted(course, "alovelace", "02_backward").read_bytes() == notebook("ada")
    assert [note.split(": ")[-1] for note in report.notes if note.startswith("late")] == ["alovelace/02_backward"]
    [unplaced] = report.unplaced
    assert unplaced.source == "anon_Zz9aa_1177320_02_backward.ipynb"
    assert unplaced.why.startswith("not on the roster: canvas-anonymous id 'Zz9aa' matches no canvas_anonymous_id; "
                                   "Canvas hides who submitted it until the assignment's grades are posted")
    report = collect(download(files), str(blind))  # no roster: graded blind, under the anonymous id
    assert report.ok and {i.student for i in report.placed} == {"anon_gX7kq", "anon_Rt4wp", "anon_Zz9aa"}


def test_blackboard_attempt_time_becomes_nbgraders_timestamp(course, download):
    (course / "nbgrader_config.py").write_text('c = get_config()\nc.Collect.timezone = "Europe/Berlin"\n')
    source = download({"Lesson 2_jsmith7_attempt_2024-03-05-14-22-09_02_backward.ipynb": notebook("john")})
    collect(source, str(course))
    stamp = submitted(course, "jsmith7", "02_backward").parent / "timestamp.txt"
    assert stamp.read_text() == "2024-03-05 13:22:09.000000 UTC\n"  # 14:22 in Berlin (CET)


MOODLE_WORKSHEET = (  # as Moodle 4.x writes it in English (a BOM first), for four participants
    '\ufeffIdentifier,"Full name","Email address",Status,Grade,"Maximum grade","Grade can be changed",'
    '"Last modified (submission)","Last modified (grade)","Feedback comments"\n'
    'Participant 2046,,,"Submitted for grading",,100.00,Yes,"Monday, 2 March 2026, 11:59 PM",-,\n'
    'Participant 2047,,,"Submitted for grading Assignment was submitted 1 hour 2 mins late",,100.00,Yes,'
    '"Tuesday, 3 March 2026, 1:01 AM",-,\n'
    'Participant 2048,,,"No submission",,100.00,Yes,-,-,\n'
    'Participant 2049,,,"Submitted for grading",,100.00,Yes,"03/03/26, 09:00",-,\n')


def test_moodle_submission_times_come_from_its_grading_worksheet(course, download, tmp_path):
    (course / "nbgrader_config.py").write_text('c = get_config()\nc.Collect.timezone = "Europe/Berlin"\n')
    worksheet = tmp_path / "Grades-Lesson 2-1234.csv"
    worksheet.write_text(MOODLE_WORKSHEET, encoding="utf-8")
    source = download({f"Participant_{n}_assignsubmission_file/02_backward.ipynb": notebook(str(n))
                       for n in (2046, 2047, 2048, 2049)})
    report = collect(source, str(course), worksheets=[str(worksheet)])

    def stamp(student):
        path = submitted(course, student, "02_backward").parent / "timestamp.txt"
        return path.read_text() if path.exists() else None
    assert stamp("2046") == "2026-03-02 22:59:00.000000 UTC\n"  # 11:59 PM in Berlin (CET)
    assert stamp("2047") == "2026-03-03 00:01:00.000000 UTC\n"
    assert stamp("2048") is None and stamp("2049") is None
    assert report.notes == ["no submission time for this participant in the grading worksheet: no late penalty: "
                            "2048/02_backward, 2049/02_backward"], "said once, with every participant it concerns"
    assert [(i.source, i.why) for i in report.unread_times] == [
        (f"{worksheet}: Participant 2049", "'03/03/26, 09:00' does not read as c.Collect.moodle_date_format "
                                            "'%A, %d %B %Y, %I:%M %p': no submission time, so no late penalty")]
    assert not report.ok, "a lost submission time must not pass quietly"
    assert f"TIME NOT READ {worksheet}: Participant 2049" in "\n".join(report.lines())


def test_a_file_that_is_not_an_english_moodle_worksheet_is_refused_before_anything_is_placed(course, download, tmp_path):
    worksheet = tmp_path / "Bewertungen.csv"
    worksheet.write_text('Kennung,"Zuletzt geändert (Abgabe)"\nTeilnehmer/in 2046,"Montag, 2. März 2026, 23:59"\n')
    source = download({"Participant_2046_assignsubmission_file/02_backward.ipynb": notebook("j")})
    with pytest.raises(CollectError, match="not a Moodle grading worksheet in English"):
        collect(source, str(course), worksheets=[str(worksheet)])
    assert not (course / "submitted").exists()


def test_canvas_late_is_late_with_the_time_unknown_and_no_time_is_made_up(course, download):
    report = collect(download({"doejane_LATE_5120_1177400_02_backward.ipynb": notebook("jane")}), str(course))
    assert not (submitted(course, "5120", "02_backward").parent / "timestamp.txt").exists()
    assert [note for note in report.notes if "time unknown" in note] == [
        "late, time unknown (the LMS says late, not when): no time is recorded, and "
        "c.LateWork.time_unknown_penalty decides the penalty: 5120/02_backward"]
    assert upload_record.late_time_unknown(str(course)) == {("5120", "02_backward")}


def test_a_notebook_over_the_size_limit_is_refused_unread_and_remembered(course, download, tmp_path):
    (course / "nbgrader_config.py").write_text("c = get_config()\nc.Collect.max_notebook_bytes = 1000\n")
    big = notebook("x" * 5000)
    source = download({"bob/02_backward.ipynb": big, "ann/02_backward.ipynb": notebook("ok")})
    roster = roster_file(tmp_path, "student_id\nann\nbob\n")
    report = collect(source, str(course), roster=roster)
    assert [(i.student, i.lesson) for i in report.refused] == [("bob", "02_backward")]
    assert "is 5.1 KiB, over the limit of 1.0 KiB per notebook: it was not read" in report.refused[0].why
    assert not submitted(course, "bob", "02_backward").exists()
    assert report.missing == [], "a refused submission is not a missing one"
    assert "REFUSED bob/02_backward" in "\n".join(report.lines())
    assert "over the limit" in (course / "ungraded" / "bob" / "02_backward" / "reason.txt").read_text()


def test_a_notebook_of_too_many_cells_is_refused_with_its_reason(course, download):
    (course / "nbgrader_config.py").write_text("c = get_config()\nc.NotebookLimits.max_cells = 5\n")
    many = nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("x")] * 6)).encode()
    report = collect(download({"bob/02_backward.ipynb": many, "ann/02_backward.ipynb": notebook("ok")}), str(course))
    assert [(i.student, i.lesson) for i in report.refused] == [("bob", "02_backward")]
    assert "6 cells, over the limit of 5" in report.refused[0].why
    assert not submitted(course, "bob", "02_backward").exists()
    assert "over the limit of 5" in (course / "ungraded" / "bob" / "02_backward" / "reason.txt").read_text()


def test_a_download_over_the_limit_is_refused_before_anything_is_read(course, download):
    (course / "nbgrader_config.py").write_text("c = get_config()\nc.Collect.max_download_bytes = 10000\n")
    source = download({f"s{i}/02_backward.ipynb": notebook("x" * 3000) for i in range(5)})
    with pytest.raises(CollectError, match="over the download limit"):
        collect(source, str(course))
    assert not (course / "submitted").exists()


def test_blackboard_download_ignores_its_receipts_quietly(course, download):
    stamp = "2024-03-05-14-22-09"
    source = download({f"Lesson 2_jsmith7_attempt_{stamp}_02_backward.ipynb": notebook("john"),
                       f"Lesson 2_jsmith7_attempt_{stamp}.txt": b"Name: John Smith\nSubmission Field: ...",
                       f"Lesson 2_jdoe_attempt_{stamp}_notes.txt": b"a student's own text file"})
    report = collect(source, str(course))
    assert submitted(course, "jsmith7", "02_backward").read_bytes() == notebook("john")
    assert not report.skipped  # jdoe's own text file is what jdoe handed in: kept, and the reason recorded
    assert [(i.source, i.student, i.lesson) for i in report.not_notebooks] == [
        (f"Lesson 2_jdoe_attempt_{stamp}_notes.txt", "jdoe", "02_backward")]
    assert "only notes.txt (a text file)" in (course / "ungraded" / "jdoe" / "02_backward" / "reason.txt").read_text()
    assert not any(f"jsmith7_attempt_{stamp}.txt" in line for line in report.lines())


def test_plain_folders_in_either_layout_and_under_a_wrapper_folder(course, tmp_path):
    """Student folders are the download's first level below a folder that holds the whole download (as
    zipping a folder makes it); a folder inside a student's folder is that student's own."""
    source = tmp_path / "download"
    for path, text in [("export/alice/02_backward.ipynb", "alice"), ("export/bob/03_no_grad/03_no_grad.ipynb", "bob"),
                       ("export/carol/my work/04_zero_grad.ipynb", "carol")]:
        (source / path).parent.mkdir(parents=True, exist_ok=True)
        (source / path).write_bytes(notebook(text))
    report = collect(str(source), str(course))
    assert {(i.student, i.lesson) for i in report.placed} == {
        ("alice", "02_backward"), ("bob", "03_no_grad"), ("carol", "04_zero_grad")}
    assert submitted(course, "bob", "03_no_grad").read_bytes() == notebook("bob")


def test_without_a_roster_the_folder_name_is_made_safe(course, download):
    report = collect(download({"John Smith (copy)/01_graph.ipynb": notebook("x")}), str(course))
    assert [i.student for i in report.placed] == ["John_Smith_copy"]


def test_lesson_option_names_the_lesson_of_any_file_name(course, download):
    source = download({"smithjohn_48213_1177302_homework.ipynb": notebook("john")})
    unsure = collect(source, str(course))
    assert not unsure.ok and "cannot tell the lesson: 'homework.ipynb'" in unsure.unplaced[0].why
    assert not (course / "submitted").exists()
    assert collect(source, str(course), lesson="03_no_grad").placed[0].lesson == "03_no_grad"


def test_a_notebook_for_an_unknown_lesson_is_reported_not_placed(course, download):
    report = collect(download({"alice/05_extra.ipynb": notebook("x"), "bob/02_backward.ipynb": notebook("y")}),
                     str(course))
    assert [i.source for i in report.unplaced] == ["alice/05_extra.ipynb"]
    assert [i.student for i in report.placed] == ["bob"]
    assert any(line.startswith("NOT PLACED alice/05_extra.ipynb: cannot tell the lesson") for line in report.lines())


def test_an_unknown_lesson_option_stops_before_anything(course, download):
    with pytest.raises(CollectError, match="unknown lesson '05_extra'"):
        collect(download({"alice/02_backward.ipynb": notebook("x")}), str(course), lesson="05_extra")


def test_a_notebook_with_no_student_is_reported(course, download):
    report = collect(download({"02_backward.ipynb": notebook("x")}), str(course))
    assert "cannot tell whose it is" in report.unplaced[0].why


def test_roster_turns_every_lms_id_into_student_id_and_reports_missing_and_unknown(course, download, tmp_path):
    roster = roster_file(tmp_path, "Student_ID,Canvas_ID,moodle_id,username,email,name\n"
                                   "s001,48213,,,,John Smith\n"
                                   "s002,,,,,\"Doe, Jane\"\n"
                                   "s003,,,bwayne,,Bruce Wayne\n"
                                   "s004,,,,ckent@uni.example,Clark Kent\n"
                                   "s005,,,,,Diana Prince\n")
    source = download({"smithjohn_48213_1177302_02_backward.ipynb": notebook("by canvas id"),
                       "Jane Doe_2047_assignsubmission_file_02_backward.ipynb": notebook("by moodle name"),
                       "Lesson 2_bwayne_attempt_2024-03-05-14-22-09_02_backward.ipynb": notebook("by username"),
                       "ckent/02_backward.ipynb": notebook("by email"),
                       "nobodyknown_99999_1177999_02_backward.ipynb": notebook("stranger")})
    report = collect(source, str(course), roster=roster)
    assert {i.student: i.source.split("_")[0] for i in report.placed} == {
        "s001": "smithjohn", "s002": "Jane Doe", "s003": "Lesson 2", "s004": "ckent/02"}
    assert report.missing == [("s005", "02_backward")]
    assert [i.source for i in report.unplaced] == ["nobodyknown_99999_1177999_02_backward.ipynb"]
    assert "not on the roster: canvas id '99999'" in report.unplaced[0].why
    assert not (course / "submitted" / "99999").exists() and not report.ok
    assert "missing s005/02_backward: on the roster, no submission" in report.lines()


def test_a_roster_student_already_in_submitted_is_not_missing(course, download, tmp_path):
    submitted(course, "s002", "01_graph").parent.mkdir(parents=True)
    submitted(course, "s002", "01_graph").write_bytes(notebook("earlier batch"))
    roster = roster_file(tmp_path, "student_id\ns001\ns002\ns003\n")
    report = collect(download({"s001/01_graph.ipynb": notebook("x")}), str(course), roster=roster)
    assert report.missing == [("s003", "01_graph")]


def test_a_roster_without_student_id_is_refused(course, download, tmp_path):
    with pytest.raises(CollectError, match="needs a student_id column"):
        collect(download({"a/01_graph.ipynb": notebook("x")}), str(course),
                roster=roster_file(tmp_path, "id,name\n1,A\n"))


def test_a_roster_student_id_that_is_no_folder_name_is_refused(course, download, tmp_path):
    with pytest.raises(CollectError, match="usable as a folder name"):
        collect(download({"a/01_graph.ipynb": notebook("x")}), str(course),
                roster=roster_file(tmp_path, "student_id\n../../etc\n"))


def test_canvas_keeps_the_higher_submission_id_whatever_the_dates(course, download):
    source = download({"smithjohn_48213_2000_02_backward-1.ipynb": (notebook("second"), OLD),
                       "smithjohn_48213_1000_02_backward.ipynb": (notebook("first"), NEW)})
    report = collect(source, str(course))
    assert submitted(course, "48213", "02_backward").read_bytes() == notebook("second")
    assert [(i.source, i.why) for i in report.superseded] == [
        ("smithjohn_48213_1000_02_backward.ipynb", "kept smithjohn_48213_2000_02_backward-1.ipynb instead")]
    assert report.ok


def test_blackboard_keeps_the_latest_attempt(course, download):
    source = download({"L2_jsmith7_attempt_2024-03-05-09-00-00_02_backward.ipynb": notebook("morning"),
                       "L2_jsmith7_attempt_2024-03-05-21-30-00_02_backward.ipynb": notebook("evening")})
    report = collect(source, str(course))
    assert submitted(course, "jsmith7", "02_backward").read_bytes() == notebook("evening")
    assert report.superseded[0].source == "L2_jsmith7_attempt_2024-03-05-09-00-00_02_backward.ipynb"


def test_moodle_keeps_the_newer_zip_entry(course, download):
    source = download({"John Smith_2046_assignsubmission_file_/02_backward.ipynb": (notebook("new"), NEW),
                       "John Smith_2046_assignsubmission_file_/02_backward (1).ipynb": (notebook("old"), OLD)})
    report = collect(source, str(course))
    assert submitted(course, "2046", "02_backward").read_bytes() == notebook("new")
    assert report.superseded[0].why == "kept John Smith_2046_assignsubmission_file_/02_backward.ipynb instead"


def test_two_different_files_for_one_student_and_nothing_to_choose_by_are_not_guessed(course, download):
    source = download({"alice/02_backward.ipynb": notebook("one"), "alice/02_backward (1).ipynb": notebook("two")})
    report = collect(source, str(course))
    assert not report.placed and len(report.conflicts) == 2 and not report.ok
    assert "2 different notebooks and nothing tells which is latest" in report.conflicts[0].why
    assert not submitted(course, "alice", "02_backward").exists()
    kept = course / "ungraded" / "alice" / "02_backward"
    assert {p.name for p in (kept / "uploads").iterdir()} == {"02_backward.ipynb", "02_backward (1).ipynb"}
    assert "nothing tells which to grade" in (kept / "reason.txt").read_text(), "alice is not 'missing'"


def test_two_identical_files_for_one_student_place_one(course, download):
    source = download({"alice/02_backward.ipynb": notebook("same"),
                       "alice/02_backward/02_backward.ipynb": notebook("same")})
    report = collect(source, str(course))
    assert len(report.placed) == 1 and len(report.superseded) == 1 and report.ok


def test_a_different_existing_submission_is_not_overwritten_unless_forced(course, download):
    target = submitted(course, "alice", "02_backward")
    target.parent.mkdir(parents=True)
    target.write_bytes(notebook("graded already"))
    source = download({"alice/02_backward.ipynb": notebook("new upload")})
    report = collect(source, str(course))
    assert report.ok and report.kept_both[0].student == "alice"  # placed by hand: nothing says which is newer
    assert "not known to be newer than the notebook in submitted/ (placed by hand)" in report.kept_both[0].why
    assert "--force replaces it" in report.kept_both[0].why
    assert target.read_bytes() == notebook("graded already")
    assert (course / "ungraded" / "alice" / "02_backward" / "uploads" / "02_backward.ipynb").read_bytes() == \
        notebook("new upload"), "both kept"
    forced = collect(source, str(course), force=True)
    assert forced.ok and forced.placed[0].why == ("replaced a different notebook (--force); the one before is kept in "
                                                  "ungraded/alice/02_backward/replaced/1/02_backward.ipynb")
    assert target.read_bytes() == notebook("new upload")
    assert (course / "ungraded" / "alice" / "02_backward" / "replaced" / "1" / "02_backward.ipynb").read_bytes() == \
        notebook("graded already"), "the replaced notebook is kept, not deleted"


def test_collecting_the_same_download_twice_reports_unchanged(course, download):
    source = download({"alice/02_backward.ipynb": notebook("x")})
    collect(source, str(course))
    again = collect(source, str(course))
    assert again.ok and not again.placed and [i.student for i in again.unchanged] == ["alice"]
    assert again.lines()[1] == "unchanged alice/02_backward from alice/02_backward.ipynb: submitted/ already holds it"


def test_an_unreadable_notebook_is_placed_and_reported(course, download):
    report = collect(download({"alice/02_backward.ipynb": b"{not json"}), str(course))
    assert submitted(course, "alice", "02_backward").read_bytes() == b"{not json"
    assert report.ok and report.unreadable[0].why.startswith("not a readable notebook (NotJSONError")
    assert any(line.startswith("UNREADABLE alice/02_backward") for line in report.lines())


def test_non_notebooks_are_skipped_and_archive_junk_is_ignored(course, download):
    source = download({"alice/notes.pdf": b"%PDF", "alice/02_backward.ipynb": notebook("x"),
                       "__MACOSX/alice/._02_backward.ipynb": b"\0", ".DS_Store": b"\0",
                       "alice/.ipynb_checkpoints/02_backward-checkpoint.ipynb": notebook("old")})
    report = collect(source, str(course))
    assert not report.skipped and [(i.source, i.student, i.lesson) for i in report.also] == [
        ("alice/notes.pdf", "alice", "02_backward")]  # alice's one lesson in the download
    assert len(report.placed) == 1 and not report.superseded and not report.unplaced


def test_zips_inside_the_download_are_opened_one_level(course, download):
    """The instructor's re-zipped export is looked into; a student's zip is opened as theirs, and a zip
    inside it is kept as it is (c.Collect.max_upload_depth), not opened."""
    deeper = zip_bytes({"inner.zip": zip_bytes({"zed/01_graph.ipynb": notebook("too deep")})})
    source = download({
        "canvas-export.zip": zip_bytes({"smithjohn_48213_1177302_02_backward.ipynb": notebook("john")}),
        "doejane_5120_1177400_work.zip": zip_bytes({"work/03_no_grad.ipynb": notebook("jane")}),
        "nested/01_graph.ipynb": notebook("nested's"), "nested/deeper.zip": deeper})
    report = collect(source, str(course))
    assert {(i.student, i.lesson) for i in report.placed} == {
        ("48213", "02_backward"), ("5120", "03_no_grad"), ("nested", "01_graph")}
    assert [i.source for i in report.skipped] == ["nested/deeper.zip/inner.zip"]
    assert "a zip inside a zip: kept as it is, not opened" in report.skipped[0].why
    assert [(i.source, i.student) for i in report.also] == [("nested/deeper.zip/inner.zip", "nested")]
    kept = course / "ungraded" / "nested" / "01_graph" / "uploads" / "inner.zip"
    assert zipfile.ZipFile(kept).read("zed/01_graph.ipynb") == notebook("too deep"), "kept whole, not lost"


def test_zip_slip_entries_are_reported_and_never_written(course, download, tmp_path):
    source = download({"../escaped_48213_1_02_backward.ipynb": notebook("evil"),
                       "/abs/alice/02_backward.ipynb": notebook("evil"),
                       "bob/../../../bob/02_backward.ipynb": notebook("evil"),
                       "C:/windows/carol/02_backward.ipynb": notebook("evil"),
                       "dave/02_backward.ipynb": notebook("fine"),
                       "inner.zip": zip_bytes({"../../eve/02_backward.ipynb": notebook("evil")})})
    before = {p for p in tmp_path.rglob("*")}
    report = collect(source, str(course))
    assert len(report.unplaced) == 5 and all("leaves the download" in i.why for i in report.unplaced)
    assert [i.student for i in report.placed] == ["dave"]
    written = {p for p in tmp_path.rglob("*")} - before
    assert all(str(p).startswith(str(course / "submitted")) for p in written if p.name != "collected.csv")
    assert not any(b"evil" in p.read_bytes() for p in written if p.is_file())


def test_run_prints_the_report_and_exits_1_when_anything_is_not_placed(course, download, capsys):
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    good = parser.parse_args([download({"alice/02_backward.ipynb": notebook("x")}, "good.zip")])
    good.root = str(course)
    assert run(good) == 0 and "placed alice/02_backward from alice/02_backward.ipynb" in capsys.readouterr().out
    bad = parser.parse_args([download({"bob/05_extra.ipynb": notebook("x")}, "bad.zip"), "--force"])
    bad.root = str(course)
    assert run(bad) == 1 and "NOT PLACED bob/05_extra.ipynb" in capsys.readouterr().out
    wrong = parser.parse_args([str(course / "nothing-here.zip"), "--lesson", "02_backward"])
    wrong.root = str(course)
    assert run(wrong) == 2 and "neither a folder nor a zip" in capsys.readouterr().out


def test_d2l_download_keeps_every_attempt_and_takes_the_latest_with_its_time(course, download, tmp_path):
    (course / "nbgrader_config.py").write_text('c = get_config()\nc.Collect.timezone = "America/Toronto"\n')
    source = download({
        "148823-60412 - Hopper, Grace - Mar 5, 2026 940 AM - 02_backward.ipynb": notebook("first"),
        "148901-60412 - Hopper, Grace - Mar 5, 2026 1205 PM - 02_backward.ipynb": notebook("latest"),
        "148777-60413 - Alan Turing - Mar 4, 2026 105 PM - 02_backward.ipynb": notebook("alan"),
        "index.html": b"<html><body>the submissions, for a person to read</body></html>"})
    roster = roster_file(tmp_path, "student_id,name,d2l_id\nghopper,Grace Hopper,60412\naturing,Alan Turing,\n")
    report = collect(source, str(course), roster=roster)
    assert report.ok and not report.skipped, report.lines()
    assert submitted(course, "ghopper", "02_backward").read_bytes() == notebook("latest")
    assert [i.source for i in report.superseded] == ["148823-60412 - Hopper, Grace - Mar 5, 2026 940 AM - 02_backward.ipynb"]
    stamp = submitted(course, "ghopper", "02_backward").parent / "timestamp.txt"
    assert stamp.read_text() == "2026-03-05 17:05:00.000000 UTC\n"  # 12:05 PM in Toronto (EST)
    alan = submitted(course, "aturing", "02_backward").parent / "timestamp.txt"
    assert alan.read_text() == "2026-03-04 18:05:00.000000 UTC\n"  # "105 PM" is 1:05 PM, matched by name


BLACKBOARD_RECEIPT = """Name: Grace Hopper (g_hopper)
Assignment: Lesson 2
Date Submitted: Thursday, March 5, 2026 6:40:31 PM EST
Current Grade: Needs Grading

Submission Field:
There is no student submission text data for this assignment.

Comments:
There are no student comments for this assignment.

Files:
\tOriginal filename: 02_backward.ipynb
\tFilename: Lesson 2_g_hopper_attempt_2026-03-05-18-40-31_02_backward.ipynb
"""


def test_blackboard_receipts_name_a_username_with_an_underscore_exactly(course, download, tmp_path):
    stamp = "2026-03-05-18-40-31"
    roster = roster_file(tmp_path, "student_id,username\nghopper,g_hopper\nhopper,hopper\n")
    with_receipt = download({f"Lesson 2_g_hopper_attempt_{stamp}_02_backward.ipynb": notebook("grace"),
                             f"Lesson 2_g_hopper_attempt_{stamp}.txt": BLACKBOARD_RECEIPT.encode()})
    report = collect(with_receipt, str(course), roster=roster)
    assert report.ok and [i.student for i in report.placed] == ["ghopper"], report.lines()
    # without the receipt, "Lesson 2_g_hopper" fits username hopper and g_hopper: not guessed
    bare = download({f"Lesson 2_g_hopper_attempt_{stamp}_02_backward.ipynb": notebook("grace")}, "bare.zip")
    shutil.rmtree(course / "submitted")
    report = collect(bare, str(course), roster=roster)
    assert not report.placed and "fits several roster students (ghopper, hopper)" in report.unplaced[0].why
    only_grace = roster_file(tmp_path, "student_id,username\nghopper,g_hopper\n")
    assert [i.student for i in collect(bare, str(course), roster=only_grace).placed] == ["ghopper"]


def test_a_pdf_instead_of_the_notebook_is_kept_and_its_reason_recorded(course, download, tmp_path):
    source = download({"hoppergrace_48214_7003_02_backward.pdf": b"%PDF-1.7",
                       "lovelaceada_48211_7001_02_backward.ipynb": notebook("ada"),
                       "lovelaceada_48211_7004_scratch.ipynb": notebook("ada's scratch")})
    roster = roster_file(tmp_path, "student_id,canvas_id\nghopper,48214\nalovelace,48211\n")
    report = collect(source, str(course), roster=roster)
    assert report.ok and report.missing == [], report.lines()
    assert [(i.student, i.lesson) for i in report.not_notebooks] == [("ghopper", "02_backward")]
    grace = course / "ungraded" / "ghopper" / "02_backward"
    assert (grace / "uploads" / "02_backward.pdf").read_bytes() == b"%PDF-1.7"
    assert "only 02_backward.pdf (a PDF)" in (grace / "reason.txt").read_text()
    # Ada's second notebook is not graded, and not lost
    assert submitted(course, "alovelace", "02_backward").read_bytes() == notebook("ada")
    assert [(i.source, i.student) for i in report.also] == [("lovelaceada_48211_7004_scratch.ipynb", "alovelace")]
    ada = course / "ungraded" / "alovelace" / "02_backward"
    assert "scratch.ipynb: a notebook, handed in beside the notebook" in (ada / "uploads.txt").read_text()
    assert not (ada / "reason.txt").exists()


def test_collecting_again_replaces_with_a_newer_upload_and_keeps_an_older_one_aside(course, download):
    first = download({"smithjohn_48213_1177302_02_backward.ipynb": notebook("first")}, "first.zip")
    later = download({"smithjohn_48213_1177390_02_backward.ipynb": notebook("later")}, "later.zip")
    assert collect(first, str(course)).placed
    again = collect(later, str(course))
    assert again.ok and again.placed[0].why == ("replaced an older notebook; the one before is kept in "
                                                "ungraded/48213/02_backward/replaced/1/02_backward.ipynb")
    assert submitted(course, "48213", "02_backward").read_bytes() == notebook("later")
    assert (course / "ungraded" / "48213" / "02_backward" / "replaced" / "1" / "02_backward.ipynb").read_bytes() == \
        notebook("first")
    old = collect(first, str(course))  # the older download collected once more: nothing lost, nothing replaced
    assert old.ok and not old.placed and "older than the notebook in submitted/" in old.kept_both[0].why
    assert submitted(course, "48213", "02_backward").read_bytes() == notebook("later")
    assert collect(later, str(course)).unchanged


def test_a_moodle_download_without_its_worksheet_says_so_once(course, download):
    source = download({f"Participant_{n}_assignsubmission_file/02_backward.ipynb": notebook(str(n)) for n in (1, 2, 3)})
    report = collect(source, str(course))
    notes = [line for line in report.lines() if "--moodle-worksheet" in line]
    assert len(notes) == 1 and notes[0].endswith("1/02_backward, 2/02_backward, 3/02_backward")


def test_a_renamed_notebook_goes_with_the_downloads_one_lesson_and_is_not_missing(course, download, tmp_path):
    source = download({"smithjohn_48213_1177302_02_backward.ipynb": notebook("john"),
                       "doejane_5120_1177400_my homework.ipynb": notebook("jane")})
    roster = roster_file(tmp_path, "student_id,canvas_id\njsmith,48213\njdoe,5120\n")
    report = collect(source, str(course), roster=roster)
    assert report.ok and report.missing == [] and not report.unplaced
    assert submitted(course, "jdoe", "02_backward").read_bytes() == notebook("jane")
    assert any("taken as 02_backward" in note for note in report.notes)


def test_run_survives_a_closed_pipe(course, download, capsys, monkeypatch):
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args([download({"alice/02_backward.ipynb": notebook("x")})])
    args.root = str(course)

    def closed(*_, **__):
        raise BrokenPipeError
    monkeypatch.setattr("builtins.print", closed)
    assert run(args) == 0


def test_a_group_notebook_is_every_members_unless_they_handed_in_their_own(course, download, tmp_path):
    """Canvas names a group's upload by the group and the member who handed it in; the roster says the rest."""
    roster = roster_file(tmp_path, "student_id,canvas_id,group\nann,48211,Team A\nbob,48212,Team A\n"
                                   "cid,48213,team a\ndee,48214,\n")
    source = download({"teama_48211_1177301_02_backward.ipynb": notebook("team"),
                       "cidney_48213_1177302_02_backward.ipynb": notebook("cid's own")})
    report = collect(source, str(course), roster=roster)
    assert submitted(course, "bob", "02_backward").read_bytes() == notebook("team")
    assert submitted(course, "cid", "02_backward").read_bytes() == notebook("cid's own")
    assert ("bob", "02_backward") in {(i.student, i.lesson) for i in report.placed}
    assert report.missing == [("dee", "02_backward")]
    assert groups.read_all(str(course)) == {("ann", "02_backward"): groups.GroupWork("Team A", "ann"),
                                            ("bob", "02_backward"): groups.GroupWork("Team A", "ann")}
