"""Reading an LMS download, zip or folder: every file in it, sizes known before anything is read.

A zip in the download (a re-zipped export, a student's zip) is looked into like a folder, one level
deep. Entries whose path would leave the download (absolute, ``..``) are reported and never read.
"""
import io
import os
import re
import time
import zipfile
from functools import partial
from typing import Callable, Iterator, NamedTuple

from .collect_report import CollectReport, Item
from .lms_settings import Collect


class DownloadError(ValueError):
    """The source is neither a zip nor a folder."""


class File(NamedTuple):
    path: str   # "/"-separated inside the download; an opened inner zip appears as a folder without .zip
    shown: str  # how the report names it
    mtime: float
    size: int   # bytes once read (a zip entry's uncompressed size), known before reading
    read: Callable[[], bytes]


def is_junk(path: str) -> bool:
    parts = path.split("/")
    return (any(part.startswith(".") or part == "__MACOSX" for part in parts)
            or parts[-1] in {"Thumbs.db", "desktop.ini"})


def _is_unsafe(name: str) -> bool:
    return name.startswith("/") or bool(re.match(r"[A-Za-z]:", name)) or ".." in name.split("/")


def mib(size: int) -> str:
    return f"{size / 1024**2:.1f} MiB" if size >= 1024**2 else f"{size / 1024:.1f} KiB"


def download_size(source: str) -> int:
    """Bytes the download holds once unpacked (a zip's own directory says), read before anything else."""
    if os.path.isdir(source):
        return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(source)
                   for name in names)
    with zipfile.ZipFile(source) as archive:
        return sum(info.file_size for info in archive.infolist())


def files(source: str, report: CollectReport, limits: Collect) -> Iterator[File]:
    """Every file of the download; each is read (``read()``) before the next is asked for."""
    if os.path.isdir(source):
        for folder, subfolders, names in os.walk(source):
            subfolders.sort()
            for name in sorted(names):
                full = os.path.join(folder, name)
                relative = os.path.relpath(full, source).replace(os.sep, "/")
                yield from _opened(File(relative, relative, os.path.getmtime(full), os.path.getsize(full),
                                         partial(read_file, full)), 0, report, limits)
    elif os.path.isfile(source) and zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            yield from _zip_entries(archive, "", "", 0, report, limits)
    else:
        raise DownloadError(f"{source} is neither a folder nor a zip file")


def read_file(path: str) -> bytes:
    with open(path, "rb") as handle:
        return handle.read()


def _zip_entries(archive: zipfile.ZipFile, path_prefix: str, shown_prefix: str, depth: int,
                 report: CollectReport, limits: Collect) -> Iterator[File]:
    for info in archive.infolist():
        name = info.filename.replace("\\", "/")
        if name.endswith("/"):
            continue
        if _is_unsafe(name):
            report.unplaced.append(Item(shown_prefix + name, why="its path leaves the download (absolute or ..); "
                                                                "not extracted, unzip it by hand if it matters"))
            continue
        mtime = time.mktime(info.date_time + (0, 0, -1))
        yield from _opened(File(path_prefix + name, shown_prefix + name, mtime, info.file_size,
                                 partial(archive.read, info)), depth, report, limits)


def _opened(file: File, depth: int, report: CollectReport, limits: Collect) -> Iterator[File]:
    """A zip in the download (a re-zipped export, a student's zip) is looked into like a folder, one level."""
    if not file.path.lower().endswith(".zip") or is_junk(file.path):
        yield file
        return
    if depth >= 1:
        report.skipped.append(Item(file.shown, why="a zip inside a zip inside the download: not opened; "
                                                   "unzip it and collect the folder"))
        return
    if file.size > limits.max_download_bytes:
        report.skipped.append(Item(file.shown, why=f"a zip of {mib(file.size)}, over the download limit "
                                                   f"(c.Collect.max_download_bytes): not opened"))
        return
    try:
        inner = zipfile.ZipFile(io.BytesIO(file.read()))
    except (zipfile.BadZipFile, OSError, RuntimeError, ValueError) as error:
        report.skipped.append(Item(file.shown, why=f"not a readable zip ({error})"))
        return
    with inner:
        unpacked = sum(info.file_size for info in inner.infolist())
        if unpacked > limits.max_download_bytes:
            report.skipped.append(Item(file.shown, why=f"a zip that unpacks to {mib(unpacked)}, over the "
                                                       "download limit (c.Collect.max_download_bytes): not opened"))
            return
        yield from _zip_entries(inner, file.path[:-4] + "/", file.shown + "/", depth + 1, report, limits)
