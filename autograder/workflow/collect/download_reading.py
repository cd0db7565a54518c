"""Reading a download for collect: every file under the upload the LMS named, staged or refused.

Each file of the download (``download_files.py``) is one of: an LMS receipt (read for what it says
about the uploads beside it), the instructor's wrapper zip (looked into once), a file nobody's naming
claims (reported), or a file of a student's upload. That last is streamed into staging against its
student's budget, and a zip is opened as the student's (``upload_contents.py``): what comes out is a
``Pending`` file of that upload, or the upload refused with the reason. Whose it is and for which
lesson are decided later (``collect.py``), from the upload's naming alone.
"""
import re
import zipfile
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

from . import download_files, lms, staged_files, upload_contents
from .report import CollectReport, Item, printable
from .download_files import mib
from ..lms_settings import Collect
from .staged_files import Staged, Staging


class Upload(NamedTuple):
    """One file of the download as the LMS named it (a Canvas file, a file of Moodle's student folder)."""
    shown: str
    reader: lms.Reader
    match: re.Match
    mtime: float              # as the download says
    name: str                 # what the student uploaded (the last part of the LMS's name for it), printable
    key: str                  # the LMS's name of the file, as a receipt names it


class Pending(NamedTuple):
    """A file of an upload, read and staged (or refused), waiting for its student and lesson."""
    upload: Upload
    shown: str
    filename: str             # its own name (the last part), printable
    staged: Staged | None
    refused: str = ""


@dataclass
class Reading:
    """One download being read: what it takes, and what it found so far."""
    limits: Collect
    lessons: list[str]
    context: lms.Context
    staging: Staging
    report: CollectReport
    names_an_upload: Callable[[str], bool]  # a folder named so is a student's, never a wrapper
    pending: list = field(default_factory=list)  # [Pending] in download order
    facts: dict = field(default_factory=dict)    # (reader, the LMS's name of a file) -> lms.Facts (receipts)
    budgets: dict = field(default_factory=dict)  # (reader, the LMS's id) -> upload_contents.Budget


def read(source: str, reading: Reading) -> None:
    for entry in download_files.entries(source, reading.report, reading.names_an_upload, reading.lessons):
        _take(entry, reading)


def too_big(size: int, limit: int) -> str:
    return (f"the notebook is {mib(size)}, over the limit of {mib(limit)} per notebook: it was not read. A lesson "
            "notebook is well under 5 MB; clear the outputs (Edit > Clear Outputs of All Cells), save and upload "
            "it again")


def _take(entry: download_files.Entry, reading: Reading) -> None:
    """One file of the download: a receipt, a wrapper zip, or a file of an upload, staged or refused."""
    parts = entry.path.split("/")
    within = "/".join(parts[entry.anchor:])
    receipt = lms.receipt_reader(within) if "/" not in within else None
    if receipt is not None:
        _read_receipt(entry, receipt, reading)
        return
    identified = lms.identify(within)
    if identified is None:
        if "/" not in within and within.lower().endswith(".zip") and not entry.wrapped:
            _open_wrapper(entry, reading)
            return
        notebook = within.lower().endswith(".ipynb")
        (reading.report.unplaced if notebook else reading.report.skipped).append(Item(
            entry.shown, why=("cannot tell whose it is: no LMS file name and no student folder"
                              + ("" if notebook else " (and not a notebook)"))))
        return
    reader, match = identified
    upload = Upload(entry.shown, reader, match, entry.mtime, printable(match["filename"].rsplit("/", 1)[-1]), parts[-1])
    budget = reading.budgets.setdefault((reader.name, match["student"]), upload_contents.Budget(reading.limits))
    limit, staged = reading.limits.max_notebook_bytes, None
    try:
        budget.entry()
        if upload.name.lower().endswith(".ipynb") and entry.size > limit:
            reading.pending.append(Pending(upload, entry.shown, upload.name, None, too_big(entry.size, limit)))
            return
        if entry.size > budget.bytes_left:
            budget.spend(entry.size)  # the download says so itself: refused before reading
        staged = reading.staging.stage(entry.open(), budget.spend)
        if upload.name.lower().endswith(".zip"):
            reading.pending += _unpacked(reading, upload, staged, budget)
        else:
            reading.pending.append(Pending(upload, entry.shown, upload.name, staged))
    except upload_contents.Refused as why:
        _refuse(reading, upload, str(why), staged)
    except Exception as error:  # a damaged entry of the download itself (bad CRC, unreadable file)
        _refuse(reading, upload, f"{upload.name} could not be read from the download ({type(error).__name__}: "
                                 f"{printable(str(error))}): download it again, or ask for it again", staged)


def _unpacked(reading: Reading, upload: Upload, staged: Staged, budget: upload_contents.Budget) -> list[Pending]:
    """The files of a student's zip, each theirs (upload_contents.py); what was left out, said."""
    pieces, left_out = [], []
    for piece in upload_contents.unpack(staged, upload.name, budget, reading.staging):
        shown = upload.shown + piece.inside[len(upload.name):]  # the download's name for it, for the instructor
        if isinstance(piece, upload_contents.LeftOut):
            reading.report.skipped.append(Item(shown, why=piece.why))
            left_out.append(f"{piece.inside}: {piece.why}")
        else:
            pieces.append(Pending(upload, shown, piece.inside.rsplit("/", 1)[-1], piece.staged))
    staged_files.drop(staged)
    if not pieces:  # the student handed in something: they are told what became of it, not "missing"
        raise upload_contents.Refused(f"{upload.name} holds nothing that could be kept"
                                      + (f" ({'; '.join(left_out[:3])})" if left_out else " (an empty zip)"))
    return pieces


def _refuse(reading: Reading, upload: Upload, why: str, staged: Staged | None) -> None:
    """The upload stands refused with its reason: what was staged of it is dropped (pieces of a zip that
    were staged before the refusal go with the staging folder)."""
    if staged is not None:
        staged_files.drop(staged)
    reading.pending.append(Pending(upload, upload.shown, upload.name, None, why))


def _read_receipt(entry: download_files.Entry, reader: lms.Reader, reading: Reading) -> None:
    limit = reading.limits.max_notebook_bytes
    if entry.size > limit:
        reading.report.skipped.append(Item(entry.shown, why=f"an LMS receipt of {mib(entry.size)}: not read"))
        return
    try:
        with entry.open() as stream:
            data = stream.read(limit + 1)
    except Exception as error:  # damaged in the download: its uploads are read by their names alone
        reading.report.skipped.append(Item(entry.shown, why=f"an LMS receipt that could not be read "
                                                            f"({type(error).__name__}: {error})"))
        return
    found = reader.read_receipt(entry.path.rsplit("/", 1)[-1], data, reading.context)
    reading.facts.update({(reader.name, name): fact for name, fact in found.items()})


def _open_wrapper(entry: download_files.Entry, reading: Reading) -> None:
    """A zip at the top of the download that names no student: the instructor's, looked into once."""
    limit = reading.limits.max_download_bytes
    if entry.size > limit:
        reading.report.skipped.append(Item(entry.shown, why=f"a zip of {mib(entry.size)}, over the download limit "
                                                            "(c.Collect.max_download_bytes): not opened"))
        return
    try:
        staged = reading.staging.stage(entry.open())
    except Exception as error:
        reading.report.skipped.append(Item(entry.shown, why=f"could not be read from the download ({error})"))
        return
    try:
        with zipfile.ZipFile(staged_files.opened(staged)) as archive:
            unpacked = sum(info.file_size for info in archive.infolist())
        if unpacked > limit:
            reading.report.skipped.append(Item(entry.shown, why=f"a zip that unpacks to {mib(unpacked)}, over the "
                                                                "download limit (c.Collect.max_download_bytes): not opened"))
            return
    except Exception:
        pass  # wrapper_entries says why it is not a zip
    for inner in download_files.wrapper_entries(entry, staged_files.opened(staged), reading.report,
                                                reading.names_an_upload, reading.lessons):
        _take(inner, reading)
    staged_files.drop(staged)
