"""`autograd-course collect`: its arguments, and which collector places what it names (an LMS
download, ``collect.py``; the class hub's exchange, ``exchange_inbound.py``)."""
import os

from .collect import CollectError, collect
from .exchange_inbound import collect as collect_exchange


def add_arguments(parser) -> None:
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


def run(args) -> int:
    """1 when anything could not be placed (or conflicts, or a time could not be read), 2 when collecting
    could not start, else 0."""
    try:
        if args.exchange:  # a class hub's submissions (exchange_inbound.py)
            report = collect_exchange(args.root, args.lesson, args.roster, args.force)
        elif args.source is None:
            raise CollectError("name a download (ZIP_OR_FOLDER), or collect from the hub with --exchange")
        else:
            report = collect(args.source, args.root, args.lesson, args.roster, args.force, args.moodle_worksheet)
    except (CollectError, OSError) as error:
        print(f"collect: {error}")
        return 2
    try:
        print("\n".join(report.lines()), flush=True)
    except BrokenPipeError:  # `collect ... | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    return 0 if report.ok else 1
