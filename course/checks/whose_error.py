"""Whose code raised: the student's (their function, or a hook of theirs that the check's backward
ran), or the check's own, working on what the function returned.

The two need different messages. "Your code raised TypeError: object of type 'NoneType' has no
len()" is false when the check's own ``len`` met the None a function returned without a ``return``;
that answer is told what it returned instead. An error is the student's when a frame of its
traceback runs code from neither the course, an installed library nor the exercise's own ``call``
(a notebook cell, a file of the student's), and the student's line is named where Python can still
show it. An untouched stub is a ``raise`` statement of the student's, not any NotImplementedError:
PyTorch raises one for a derivative it lacks, from a line of the student's that called it.
"""
import dis
import linecache
import os
import sysconfig
import traceback
import types

_COURSE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
_LIBRARIES = tuple(os.path.realpath(sysconfig.get_paths()[key]) for key in ("stdlib", "platstdlib", "purelib", "platlib"))


def codes_of(function) -> frozenset:
    """A function's code and every code nested in it (its lambdas, inner functions): the check's own."""
    found, stack = set(), [getattr(function, "__code__", None)]
    while stack:
        code = stack.pop()
        if isinstance(code, types.CodeType) and code not in found:
            found.add(code)
            stack += [const for const in code.co_consts if isinstance(const, types.CodeType)]
    return frozenset(found)


def _theirs(code: types.CodeType, checks: frozenset) -> bool:
    filename = code.co_filename
    if code in checks or filename.startswith(("<frozen ", "<string>")):
        return False
    path = os.path.realpath(filename) if os.path.isabs(filename) else filename
    return not (path.startswith(_COURSE + os.sep) or path.startswith(_LIBRARIES))


def _students(error: BaseException, checks: frozenset) -> list:
    """The traceback's entries that run the student's code, outermost first."""
    return [tb for tb in _entries(error) if _theirs(tb.tb_frame.f_code, checks)]


def _entries(error: BaseException):
    tb = error.__traceback__
    while tb is not None:
        yield tb
        tb = tb.tb_next


def raised_by_student(error: BaseException, checks: frozenset = frozenset()) -> bool:
    return bool(_students(error, checks))


def raised_by_a_raise_of_theirs(error: BaseException, checks: frozenset = frozenset()) -> bool:
    """Whether a ``raise`` statement of the student's raised it (the stub's), not a library it called."""
    entries = list(_entries(error))
    if not entries or not _theirs(entries[-1].tb_frame.f_code, checks):
        return False
    last = entries[-1]
    return any(i.offset == last.tb_lasti and i.opname in ("RAISE_VARARGS", "RERAISE")
               for i in dis.get_instructions(last.tb_frame.f_code))


def where_raised(error: BaseException, checks: frozenset = frozenset()) -> str:
    """" (line 3 of `two_losses`: `g = x.grad * 2`)" where Python still has the line; "" otherwise."""
    students = _students(error, checks)
    if not students:
        return ""
    tb = students[-1]
    code = tb.tb_frame.f_code
    text = linecache.getline(code.co_filename, tb.tb_lineno).strip()
    if not text:
        return ""
    return f" (line {tb.tb_lineno - code.co_firstlineno + 1} of `{code.co_name}`: `{text[:120]}`)"
