"""What a student's upload holds: its zips opened, every entry streamed and counted against the student.

An upload is what the LMS named for one student (a file, or Moodle's folder of them): everything in it
is that student's, whatever its own names say, and it carries the upload's owner, attempt and time.
A zip in it is opened (a zip in that one to ``c.Collect.max_upload_depth``; deeper ones are kept as
they are), and each entry is streamed into staging and counted against the student's ``Budget``:
``max_upload_bytes`` unpacked, ``max_upload_entries`` files, whatever the zip declares. A corrupt,
truncated or encrypted entry, a zip that is none, or a spent budget refuses the upload (``Refused``)
with its reason, and costs no one else anything. An entry whose path leaves its zip, or that is a
link, is left out with a line saying so; junk (``__MACOSX/``, hidden files) is passed over.
"""
import os
import stat
import struct
import zipfile
from typing import Iterator, NamedTuple

from .report import printable
from .download_files import is_junk, is_special, is_unsafe, mib
from ..lms_settings import Collect
from . import staged_files
from .staged_files import Staged, Staging, drop

CENTRAL_BYTES_PER_ENTRY = 1024  # most bytes of a zip's directory read per entry the budget still allows


class Refused(Exception):
    """The upload is refused whole; ``str()`` says why, for the student."""


class Budget:
    """What one student's uploads may still unpack to, spent as entries are read."""

    def __init__(self, limits: Collect):
        self.limits = limits
        self.bytes_left = limits.max_upload_bytes
        self.entries_left = limits.max_upload_entries
        self.spent_on = ""  # why it ran out, once it has

    def entry(self, count: int = 1) -> None:
        self.entries_left -= count
        if self.entries_left < 0:
            self._out(f"holds more than {self.limits.max_upload_entries} files (c.Collect.max_upload_entries)")

    def spend(self, size: int) -> None:
        self.bytes_left -= size
        if self.bytes_left < 0:
            self._out(f"unpacks to more than {mib(self.limits.max_upload_bytes)} (c.Collect.max_upload_bytes)")

    def _out(self, why: str) -> None:
        self.spent_on = self.spent_on or (f"what you handed in {why}, so it was refused. A lesson's upload is its "
                                          "notebook (or a zip of a few files): upload the notebook itself")
        raise Refused(self.spent_on)


class Piece(NamedTuple):
    """One file of an upload, staged."""
    inside: str      # its path inside the upload ("" for the upload itself), printable
    staged: Staged


class LeftOut(NamedTuple):
    inside: str
    why: str


def unpack(staged: Staged, name: str, budget: Budget, staging: Staging, depth: int = 1,
           ) -> Iterator[Piece | LeftOut]:
    """The files of the zip ``staged`` (its name in the upload: ``name``), opened at ``depth``."""
    with staged_files.opened(staged) as handle:
        _check_directory(handle, budget, name)
        try:
            archive = zipfile.ZipFile(handle)
        except Exception as error:  # BadZipFile, a name that is not UTF-8, a damaged directory
            raise Refused(f"{name} is not a readable zip ({_said(error)})") from None
        with archive:
            infos = archive.infolist()
            budget.entry(len(infos))
            for info in infos:
                inside = f"{name}/{printable(info.filename)}"
                path = info.filename.replace("\\", "/")
                if path.endswith("/"):
                    continue
                if is_unsafe(path):
                    yield LeftOut(inside, "its path leaves the zip (absolute or ..): not read")
                    continue
                if is_junk(path):
                    continue
                if is_special(info):
                    kind = "a symbolic link" if stat.S_ISLNK(info.external_attr >> 16) else "not a regular file"
                    yield LeftOut(inside, f"{kind} in the zip: not followed, not kept")
                    continue
                yield from _entry(archive, info, inside, budget, staging, depth)


def _entry(archive: zipfile.ZipFile, info: zipfile.ZipInfo, inside: str, budget: Budget, staging: Staging,
           depth: int) -> Iterator[Piece | LeftOut]:
    if info.flag_bits & 0x1:
        raise Refused(f"{inside} is encrypted: it cannot be read without its password. Upload it unencrypted")
    if info.file_size > budget.bytes_left:
        budget.spend(info.file_size)  # refused before reading: the zip says so itself
    try:
        entry = staging.stage(archive.open(info), budget.spend)
    except Refused:
        raise
    except Exception as error:  # bad CRC, truncated, unsupported compression, a lying size
        raise Refused(f"{inside} could not be read from the zip ({_said(error)}): upload it again") from None
    if not inside.lower().endswith(".zip"):
        yield Piece(inside, entry)
        return
    if depth >= budget.limits.max_upload_depth:
        yield Piece(inside, entry)  # kept as it is: a zip this deep is not opened
        yield LeftOut(inside, f"a zip inside a zip: kept as it is, not opened (c.Collect.max_upload_depth "
                              f"{budget.limits.max_upload_depth})")
        return
    try:
        yield from unpack(entry, inside, budget, staging, depth + 1)
    finally:
        drop(entry)


def _said(error: Exception) -> str:
    return f"{type(error).__name__}: {printable(str(error))[:200]}"


def _check_directory(handle, budget: Budget, name: str) -> None:
    """Refuse a zip whose directory declares more entries, or more bytes of directory, than the student
    has left, before zipfile reads every entry of it into memory."""
    declared = central_directory(handle)
    if declared is None:
        return  # not a zip: zipfile says so in its own words
    entries, size = declared
    if entries > budget.entries_left or size > max(budget.entries_left, 0) * CENTRAL_BYTES_PER_ENTRY:
        budget.entry(max(entries, size // CENTRAL_BYTES_PER_ENTRY + 1))


def central_directory(handle) -> tuple[int, int] | None:
    """(entries, bytes) of a zip's central directory, as its end record says (APPNOTE 4.3.14-4.3.16),
    or None when there is no end record."""
    handle.seek(0, os.SEEK_END)
    size = handle.tell()
    tail_start = max(0, size - (22 + 0xFFFF + 20))
    handle.seek(tail_start)
    tail = handle.read()
    end = tail.rfind(b"PK\x05\x06")
    if end < 0 or len(tail) - end < 22:
        return None
    entries, directory = struct.unpack("<HI", tail[end + 10:end + 16])
    if entries != 0xFFFF and directory != 0xFFFFFFFF:
        return entries, directory
    locator = end - 20
    if locator < 0 or tail[locator:locator + 4] != b"PK\x06\x07":
        return entries, directory
    (record_at,) = struct.unpack("<Q", tail[locator + 8:locator + 16])
    handle.seek(record_at)
    record = handle.read(56)
    if len(record) < 56 or record[:4] != b"PK\x06\x06":
        return entries, directory
    entries, directory = struct.unpack("<QQ", record[32:48])
    return entries, directory
