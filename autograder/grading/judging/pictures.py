"""The figures a grading kernel describes, drawn here: each identical description once per process.

A grading kernel sends a course figure as its description (plain data under ``PICTURE_MIME``,
``course/visuals/picture.py``) and this process draws it, as the kernel would have, into the
output's ``image/png``. A class's notebooks show the same figures again and again (the lesson's
own, and every correct answer's), so each is drawn once and kept (``DRAWN``), up to
``MEMO_BYTES``; the local workers of one batch also leave what they draw in a folder they share
(``share``, from ``fan_out.local_executor``), so a figure one worker drew the others read. At a
lesson's start every worker meets its figures at once: one draws each (holding its lock) while the
others wait for it, rather than all drawing it side by side on cores their kernels need. A
description is data: drawing it runs only the course's drawing code, on values checked first; one
that cannot be drawn becomes a line of text saying why. A notebook may have
``max_pictures`` drawn, in ``seconds`` of drawing and ``max_bytes`` of PNG at most (the notebook's
own output cap counts its kernel's messages, not what is drawn here); past any, its pictures say so.
Pictures are drawn after the cell that showed them has run, with their own budget of this process's
CPU time (``Pictures``). Pictures sent while a graded exercise is tried are not kept in the notebook,
so they are not drawn.
"""
import base64
import contextlib
import fcntl
import hashlib
import json
import os
import time
from collections import OrderedDict

import matplotlib

matplotlib.use("Agg")  # this process draws into files only

from course.visuals.picture import PICTURE_MIME, PLACEHOLDER, PictureError, drawing_modules, grading_png  # noqa: E402

MEMO_BYTES = 64 * 1024**2
SHARED_BYTES = 16 * 1024**2  # what one process writes to the shared folder at most
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
WAIT_POLL = 0.005  # seconds between looks at a lock another worker holds
DRAWN: "OrderedDict[str, tuple[str, str]]" = OrderedDict()  # description's digest -> (PNG as base64, text)
_shared = {"folder": None, "written": 0}
drawing_modules()  # imported now: a warm parent forks its workers with them


def share(folder: str | None) -> None:
    """Read and leave drawings in ``folder`` too: private to the grader, one per batch (None: none)."""
    _shared.update(folder=folder, written=0)


def _digest(description) -> str:
    return hashlib.sha256(json.dumps(description, sort_keys=True, ensure_ascii=True).encode()).hexdigest()


def _drawn(description, patience: float) -> tuple[str, str]:
    key = _digest(description)
    if key in DRAWN:
        DRAWN.move_to_end(key)
        return DRAWN[key]
    drawn = _read_shared(key)
    if drawn is None:
        with _drawing(key, patience):
            drawn = _read_shared(key)  # left by the worker that held the lock, if it could
            if drawn is None:
                data, text = grading_png(description)
                drawn = base64.b64encode(data).decode("ascii"), text
                _leave_shared(key, drawn)
    if len(drawn[0]) <= MEMO_BYTES:
        DRAWN[key] = drawn
        while sum(len(png) for png, _ in DRAWN.values()) > MEMO_BYTES:  # a few dozen entries: summed anew
            DRAWN.popitem(last=False)
    return drawn


@contextlib.contextmanager
def _drawing(key: str, patience: float):
    """Hold the lock on drawing ``key`` in the shared folder, once whoever holds it has let go (drawn,
    or died: the system releases a dead process's lock), or after ``patience`` seconds, whichever is
    first. Without a folder, or with no room left to share what it draws, a process draws at once."""
    lock = _lock_file(key)
    try:
        deadline = time.monotonic() + patience
        while lock is not None and time.monotonic() < deadline:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                time.sleep(WAIT_POLL)
        yield
    finally:
        if lock is not None:
            os.close(lock)  # and its lock with it


def _lock_file(key: str) -> int | None:
    folder = _shared["folder"]
    if folder is None or _shared["written"] >= SHARED_BYTES:
        return None
    try:
        return os.open(os.path.join(folder, key + ".lock"), os.O_CREAT | os.O_RDWR, 0o600)
    except OSError:
        return None


def _read_shared(key: str) -> tuple[str, str] | None:
    folder = _shared["folder"]
    if folder is None:
        return None
    try:
        with open(os.path.join(folder, key + ".json"), encoding="utf-8") as handle:
            if os.fstat(handle.fileno()).st_size > SHARED_BYTES:
                return None
            png, text = json.load(handle)
        if not base64.b64decode(png, validate=True).startswith(PNG_SIGNATURE) or not isinstance(text, str):
            return None
    except (OSError, ValueError, TypeError):  # not drawn yet, or not a drawing: drawn here
        return None
    return png, text


def _leave_shared(key: str, drawn: tuple[str, str]) -> None:
    folder = _shared["folder"]
    size = len(drawn[0]) + len(drawn[1])
    if folder is None or _shared["written"] + size > SHARED_BYTES:
        return
    partial = os.path.join(folder, f"{key}.{os.getpid()}.part")
    try:
        with open(partial, "w", encoding="utf-8") as handle:
            json.dump(list(drawn), handle)
        os.replace(partial, os.path.join(folder, key + ".json"))  # whole or absent for a reader
    except OSError:  # a full disk costs the others a drawing, nothing more
        with contextlib.suppress(OSError):
            os.remove(partial)
        return
    _shared["written"] += size


class Pictures:
    """One notebook's pictures: how many have been drawn, and for how much of this process's time, against its caps.

    A picture is drawn once the cell that showed it has run (``draw``), never while its kernel's reply
    is awaited: the drawing is this process's work, and a cell's time limit, or the wait for its last
    messages, must not charge it to the kernel. Its budget is this process's CPU time, which a busy
    machine does not stretch, so the same pictures are drawn however loaded the machine is.
    """

    def __init__(self, max_pictures: int, seconds: float, max_bytes: int):
        self.max_pictures, self.seconds, self.max_bytes = max_pictures, seconds, max_bytes
        self.drawn, self.spent, self.bytes = 0, 0.0, 0
        self.waiting = False  # an output holds a description not drawn yet

    def receive(self, msg, kept: bool = True) -> None:
        """A display message that describes a picture: kept in it as a description, to be drawn after its
        cell; not kept (sent while a graded exercise is tried), taken out."""
        content = msg.get("content")
        data = content.get("data") if isinstance(content, dict) else None
        if not isinstance(data, dict) or PICTURE_MIME not in data:
            return
        if kept:
            self.waiting = True
            return
        del data[PICTURE_MIME]
        if data.get("text/plain") == PLACEHOLDER:
            del data["text/plain"]

    def draw(self, cells) -> None:
        """Draw every picture the outputs of ``cells`` still describe into their ``image/png``."""
        if not self.waiting:
            return
        self.waiting = False
        for cell in cells:
            for output in cell.get("outputs", []):
                data = output.get("data")
                if isinstance(data, dict) and PICTURE_MIME in data:
                    self._draw(data)

    def _draw(self, data: dict) -> None:
        description = data.pop(PICTURE_MIME)
        if data.get("text/plain") == PLACEHOLDER:
            del data["text/plain"]
        if over := self._over():
            data["text/plain"] = f"(picture not drawn: this notebook showed {over})"
            return
        self.drawn += 1
        started = time.thread_time()
        try:
            data["image/png"], text = _drawn(description, patience=self.seconds - self.spent)
        except PictureError as error:
            data["text/plain"] = f"(picture not drawn: {error})"
        except Exception as error:  # noqa: BLE001  (data checked, yet shaped to break the drawing)
            data["text/plain"] = f"(picture not drawn: {type(error).__name__})"
        else:
            data.setdefault("text/plain", text)
            self.bytes += len(data["image/png"])
        finally:
            self.spent += time.thread_time() - started

    def _over(self) -> str:
        if self.drawn >= self.max_pictures:
            return f"more than {self.max_pictures} pictures"
        if self.spent >= self.seconds:
            return f"pictures that took more than {self.seconds:g} s to draw"
        if self.bytes >= self.max_bytes:
            return f"more than {self.max_bytes} bytes of pictures"
        return ""
