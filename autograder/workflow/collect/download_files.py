"""Reading an LMS download, zip or folder: its entries, and the level at which each names an upload.

A download is the LMS's (or the instructor's) arrangement of uploads: LMS-named files and folders
(``lms/``), or a folder per student. It may sit in wrapper folders, as zipping a folder makes: a single
top folder that holds only uploads (LMS-named files, or folders), is not itself named by an LMS, is not
a roster student's and holds no lesson folder. The first level below the wrappers is where an upload
is named (``Entry.anchor``); what lies below an upload is the student's own and names no one.

A zip at that level that names no upload is the instructor's (a re-zipped export): it is looked into
like a folder, once (``wrapper_entries``); a student's zip is opened by ``upload_contents``. Entries whose
path would leave the download (absolute, ``..``) are reported and never read; in a folder, links and
other special files are reported and never followed (files are opened with ``O_NOFOLLOW``).
"""
import os
import stat
import time
import zipfile
from typing import BinaryIO, Callable, Iterator, NamedTuple

from .report import CollectReport, Item, printable

MAX_WRAPPERS = 8


class DownloadError(ValueError):
    """The source is neither a zip nor a folder."""


class Entry(NamedTuple):
    path: str      # "/"-separated inside the download; a wrapper zip's entries under its name without .zip
    shown: str     # how the report names it (printable)
    mtime: float   # as the download says (the LMS's time of the upload)
    size: int      # bytes, as the zip's directory or the folder declares them
    open: Callable[[], BinaryIO]
    anchor: int    # leading parts that are wrappers: the upload is named by parts[anchor]
    wrapped: bool = False  # inside a wrapper zip, whose zips are not opened as wrappers again


def is_junk(path: str) -> bool:
    parts = path.split("/")
    return (any(part.startswith(".") or part == "__MACOSX" for part in parts)
            or parts[-1] in {"Thumbs.db", "desktop.ini"})


def is_unsafe(name: str) -> bool:
    return name.startswith("/") or name[1:2] == ":" or ".." in name.split("/")


def is_special(info: zipfile.ZipInfo) -> bool:
    """A zip entry a Unix zip marks as a link, a folder, a pipe or a device (not a plain file)."""
    return info.create_system == 3 and stat.S_IFMT(info.external_attr >> 16) not in (0, stat.S_IFREG)


def mib(size: int) -> str:
    return f"{size / 1024**3:.1f} GiB" if size >= 1024**3 else (
        f"{size / 1024**2:.1f} MiB" if size >= 1024**2 else f"{size / 1024:.1f} KiB")


def download_size(source: str) -> int:
    """Bytes the download holds once unpacked (a zip's own directory says), read before anything else."""
    if os.path.isdir(source):
        total = 0
        for folder, _, names in os.walk(source):
            for name in names:
                info = os.lstat(os.path.join(folder, name))
                total += info.st_size if stat.S_ISREG(info.st_mode) else 0
        return total
    with zipfile.ZipFile(source) as archive:
        return sum(info.file_size for info in archive.infolist())


def wrapper_depth(paths: list[str], names_an_upload: Callable[[str], bool], lessons: list[str]) -> int:
    """How many single top folders hold the whole listing as wrappers (see the module doc)."""
    split = [path.split("/") for path in paths]
    lesson_names = {lesson.lower() for lesson in lessons}
    depth = 0
    while depth < MAX_WRAPPERS:
        tops = {parts[depth] for parts in split if len(parts) > depth + 1}
        if len(tops) != 1 or any(len(parts) == depth + 1 for parts in split):
            return depth
        top = next(iter(tops))
        children = [parts[depth + 1:] for parts in split]
        if names_an_upload(top) or any(
                (len(child) == 1 and not names_an_upload(child[0]))  # a plain file: the folder is a student's
                or (len(child) > 1 and child[0].lower() in lesson_names) for child in children):
            return depth
        depth += 1
    return depth


def entries(source: str, report: CollectReport, names_an_upload: Callable[[str], bool],
            lessons: list[str]) -> Iterator[Entry]:
    """Every file of the download (``source``, a folder or a zip), wrappers marked by ``anchor``."""
    if os.path.isdir(source):
        found = list(_folder_files(source, report))
        anchor = wrapper_depth([path for path, _ in found], names_an_upload, lessons)
        for path, full in found:
            info = os.lstat(full)
            yield Entry(path, printable(path), info.st_mtime, info.st_size, _opener(full), anchor)
    elif os.path.isfile(source) and zipfile.is_zipfile(source):
        with zipfile.ZipFile(source) as archive:
            yield from _zip_entries(archive, "", report, names_an_upload, lessons, wrapped=False)
    else:
        raise DownloadError(f"{source} is neither a folder nor a zip file")


def wrapper_entries(entry: Entry, staged: BinaryIO, report: CollectReport,
                    names_an_upload: Callable[[str], bool], lessons: list[str]) -> Iterator[Entry]:
    """The entries of a wrapper zip (its bytes staged, opened as ``staged``), as a folder named after it."""
    try:
        archive = zipfile.ZipFile(staged)
    except Exception as error:  # not a zip, a damaged directory, a name that is not UTF-8
        report.skipped.append(Item(entry.shown, why=f"not a readable zip ({type(error).__name__}: "
                                                    f"{printable(str(error))[:200]}): not opened"))
        return
    with archive:
        yield from _zip_entries(archive, entry.path[:-4] + "/", report, names_an_upload, lessons, wrapped=True)


def _zip_entries(archive: zipfile.ZipFile, prefix: str, report: CollectReport,
                 names_an_upload: Callable[[str], bool], lessons: list[str], wrapped: bool) -> Iterator[Entry]:
    kept = []
    for info in archive.infolist():
        name = info.filename.replace("\\", "/")
        if name.endswith("/"):
            continue
        if is_unsafe(name):
            report.unplaced.append(Item(printable(prefix + name), why="its path leaves the download (absolute or "
                                                                      "..); not extracted, unzip it by hand if it matters"))
        elif is_junk(name):
            continue
        elif is_special(info):
            report.skipped.append(Item(printable(prefix + name), why="a symbolic link or special file in the zip: "
                                                                     "not followed"))
        else:
            kept.append((name, info))
    anchor = prefix.count("/") + wrapper_depth([name for name, _ in kept], names_an_upload, lessons)
    for name, info in kept:
        mtime = time.mktime(info.date_time + (0, 0, -1))
        yield Entry(prefix + name, printable(prefix + name), mtime, info.file_size,
                    lambda info=info: archive.open(info), anchor, wrapped)


def _folder_files(source: str, report: CollectReport) -> Iterator[tuple[str, str]]:
    """(path in the download, full path) of each regular file under ``source``, links not followed."""
    stack = [(source, "")]
    while stack:
        folder, relative = stack.pop()
        with os.scandir(folder) as listing:
            found = sorted(listing, key=lambda item: item.name)
        subfolders = []
        for item in found:
            path = relative + item.name
            if is_junk(path):
                continue
            if item.is_symlink():
                report.skipped.append(Item(printable(path), why="a symbolic link in the download: not followed"))
            elif item.is_dir(follow_symlinks=False):
                subfolders.append((item.path, path + "/"))
            elif item.is_file(follow_symlinks=False):
                yield path, item.path
            else:
                report.skipped.append(Item(printable(path), why="not a regular file (a pipe, socket or device): "
                                                                "not read"))
        stack += reversed(subfolders)  # the first in name order is read next


def _opener(full: str) -> Callable[[], BinaryIO]:
    def open_regular() -> BinaryIO:
        fd = os.open(full, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise OSError(f"{full} is no longer a regular file")
        return os.fdopen(fd, "rb")
    return open_regular
