"""The arguments of the workflow's commands (collect, export, report), apart from the modules that run
them: the command line builds its parser from these alone and imports a command's module only to
run it, so ``autograd-course grade`` reaches its warm parents without importing the rest (and
neither does each local worker, which imports the command's script again)."""


def collect(parser) -> None:
    parser.add_argument("source", metavar="ZIP_OR_FOLDER", nargs="?", help="an LMS bulk download (Canvas, Moodle, "
                                                                            "Blackboard, D2L Brightspace) or a folder "
                                                                            "of student folders")
    parser.add_argument("--exchange", action="store_true", help="collect from nbgrader's exchange on a class hub "
                                                                "instead: each student's latest submission")
    parser.add_argument("--lesson", help="the lesson every file in the download is for "
                                         "(default: read from each file's name)")
    parser.add_argument("--roster", help="CSV with student_id and any of canvas_id, canvas_anonymous_id, moodle_id, "
                                         "d2l_id, username, login_id, email, name, first_name, last_name: LMS ids "
                                         "are turned into student_id")
    parser.add_argument("--force", action="store_true", help="replace submitted notebooks that differ, even when "
                                                             "the download's is not newer")
    parser.add_argument("--moodle-worksheet", action="append", default=[], metavar="CSV",
                        help="a Moodle assignment's grading worksheet (in English): its submission times become "
                             "the Moodle files' timestamps, for nbgrader's late penalty (repeat for each assignment)")


def export(parser) -> None:
    parser.add_argument("lessons", nargs="*", help="lessons to export (default: those released and collected)")
    parser.add_argument("--out", default="exports", metavar="DIR",
                        help="folder for grades.csv, exercises.csv, canvas.csv and moodle/ (default: exports/)")
    parser.add_argument("--roster", metavar="CSV",
                        help="student_id[,canvas_id,login_id,name,section,sis_user_id]: every roster student gets "
                             "a row, matched in Canvas by its ids; without it the nbgrader student id is the "
                             "Canvas login id")
    parser.add_argument("--into", action="append", default=[], metavar="FILE",
                        help="a gradebook file downloaded from the LMS (Canvas's Export, Moodle's grading worksheet, "
                             "Blackboard's Work Offline download, D2L's grades export): a copy with the scores filled "
                             "in, every other column and row as downloaded, is written to the --out folder "
                             "(repeatable)")


def report(parser) -> None:
    parser.add_argument("lessons", nargs="*", help="lessons to report on (default: those released and collected)")
    parser.add_argument("--out", default="report", metavar="DIR",
                        help="folder for report.html and its PNG charts (default: report/)")
    parser.add_argument("--roster", metavar="CSV", help="the class list (student_id, ...): lists who submitted nothing")
