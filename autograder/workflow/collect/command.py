"""`autograd-course collect`: its arguments, and which collector places what it names (an LMS
download, ``collect.py``; the class hub's exchange, ``exchange_inbound.py``)."""
import os

from .download import CollectError, collect
from .report import printable
from .exchange import collect as collect_exchange


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
        print(printable(f"collect: {error}"))
        return 2
    try:
        print("\n".join(report.lines()), flush=True)
    except BrokenPipeError:  # `collect ... | head`: the reader has what it wanted
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    return 0 if report.ok else 1
