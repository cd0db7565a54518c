"""Whose code raised: the student's (their function, or a hook of theirs that the check's backward
ran), or the check's own, working on what the function returned.

The two need different messages. "Your code raised TypeError: object of type 'NoneType' has no
len()" is false when the check's own ``len`` met the None a function returned without a ``return``;
that answer is told what it returned instead. An error is the student's when a frame of its
traceback runs code from neither the course nor an installed library (a notebook cell, a file of
the student's), and the student's line is named where Python can still show it.
"""
import linecache
import os
import sysconfig
import traceback

_COURSE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIBRARIES = tuple(os.path.realpath(sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib", "purelib", "platlib"))


def _theirs(filename: str) -> bool:
    if filename.startswith("<frozen ") or filename.startswith("<string>"):
        return False
    path = os.path.realpath(filename) if os.path.isabs(filename) else filename
    return not (path.startswith(_COURSE + os.sep) or path.startswith(_LIBRARIES))


def students_frame(error: BaseException):
    """The innermost frame of the student's own code in ``error``'s traceback (None: none ran there)."""
    found = None
    for frame, _ in traceback.walk_tb(error.__traceback__):
        if _theirs(frame.f_code.co_filename):
            found = frame
    return found


def raised_by_student(error: BaseException) -> bool:
    return students_frame(error) is not None


def raised_in_students_line(error: BaseException) -> bool:
    """Whether the student's own line raised it (``raise NotImplementedError()`` of a stub), not a
    library it called."""
    last = None
    for frame, _ in traceback.walk_tb(error.__traceback__):
        last = frame
    return last is not None and _theirs(last.f_code.co_filename)


def where_raised(error: BaseException) -> str:
    """" (line 3 of `two_losses`: `g = x.grad * 2`)" where Python still has the line; "" otherwise."""
    frame = students_frame(error)
    if frame is None:
        return ""
    tb = next(tb for tb in _tracebacks(error) if tb.tb_frame is frame)
    first = frame.f_code.co_firstlineno
    text = linecache.getline(frame.f_code.co_filename, tb.tb_lineno).strip()
    if not text:
        return ""
    return f" (line {tb.tb_lineno - first + 1} of `{frame.f_code.co_name}`: `{text[:120]}`)"


def _tracebacks(error: BaseException):
    tb = error.__traceback__
    while tb is not None:
        yield tb
        tb = tb.tb_next
