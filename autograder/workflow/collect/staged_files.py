"""A download's files kept, as they are read, in memory or in a private folder of the course.

Nothing of a download is held whole: each file is streamed in chunks, counted against its student's
budget as it goes (``upload_contents.Budget``) and hashed. A small file is held in memory while the
run's total held stays under ``MEMORY``; anything else goes to a staging file in ``.collecting-*`` in
the course. So collect's memory stays bounded whatever a download holds, and a small file costs one
file creation (where it is kept), not two. A staged file is then put in place (``submitted/``,
``ungraded/``) whole, or dropped; the folder goes when collect ends. It lies inside the course, so
nothing of a download is written anywhere else.
"""
import errno
import hashlib
import io
import os
import shutil
import tempfile
from typing import BinaryIO, Callable, NamedTuple

CHUNK = 1024 * 1024     # bytes read at a time; a file no bigger may be held in memory
MEMORY = 64 * 1024**2   # bytes of small files one collect holds in memory at most


class Staged(NamedTuple):
    path: str                  # its staging file, or "" when held in memory
    size: int
    digest: str                # sha256 of the bytes: equal files are told apart without reading them again
    data: bytes | None = None  # the bytes, when held in memory


class Staging:
    """Where one collect keeps what it read: ``with Staging(root) as staging: ...``."""

    def __init__(self, root: str):
        self.folder = tempfile.mkdtemp(prefix=".collecting-", dir=root)
        self._count = 0
        self._held = 0

    def __enter__(self) -> "Staging":
        return self

    def __exit__(self, *exc) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)

    def stage(self, stream: BinaryIO, spend: Callable[[int], None] = lambda size: None) -> Staged:
        """Read ``stream`` (closed afterwards) whole; ``spend(n)`` is told of each chunk before it is kept
        and may raise to stop, and then nothing is kept."""
        with stream:
            first = _read_up_to(stream, CHUNK + 1)
            spend(len(first))
            if len(first) <= CHUNK and self._held + len(first) <= MEMORY:
                self._held += len(first)
                return Staged("", len(first), hashlib.sha256(first).hexdigest(), first)
            return self._to_file(first, stream, spend)

    def _to_file(self, first: bytes, stream: BinaryIO, spend: Callable[[int], None]) -> Staged:
        self._count += 1
        path = os.path.join(self.folder, str(self._count))
        digest, size = hashlib.sha256(first), len(first)
        try:
            with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), "wb") as out:
                out.write(first)
                while chunk := stream.read(CHUNK):
                    spend(len(chunk))
                    out.write(chunk)
                    digest.update(chunk)
                    size += len(chunk)
        except BaseException:
            drop(Staged(path, size, ""))
            raise
        return Staged(path, size, digest.hexdigest())


def _read_up_to(stream: BinaryIO, size: int) -> bytes:
    parts, got = [], 0
    while got < size and (part := stream.read(size - got)):
        parts.append(part)
        got += len(part)
    return b"".join(parts)


def opened(staged: Staged) -> BinaryIO:
    """The staged bytes as a file (for zipfile)."""
    return io.BytesIO(staged.data) if staged.data is not None else open(staged.path, "rb")


def read(staged: Staged) -> bytes:
    if staged.data is not None:
        return staged.data
    with open(staged.path, "rb") as handle:
        return handle.read()


def move(staged: Staged, target: str) -> None:
    """Put the staged bytes at ``target`` whole (a rename of the staging file, or a write of the held
    bytes and a rename; a copy when ``target`` is on another disk than the course)."""
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        os.makedirs(folder, exist_ok=True)
    partial = target + ".collecting"
    if staged.data is not None:
        with open(partial, "wb") as handle:
            handle.write(staged.data)
        os.replace(partial, target)
        return
    try:
        os.replace(staged.path, target)
    except OSError as error:
        if error.errno != errno.EXDEV:
            raise
        shutil.copyfile(staged.path, partial)
        os.replace(partial, target)
        drop(staged)


def drop(staged: Staged) -> None:
    if not staged.path:
        return
    try:
        os.remove(staged.path)
    except FileNotFoundError:
        pass


def digest_of(path: str) -> str:
    """sha256 of a file, read in chunks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
