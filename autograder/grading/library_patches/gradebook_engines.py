"""One SQLAlchemy engine per gradebook per grading process, instead of one per nbgrader step.

nbgrader's ``Gradebook`` creates a new engine each time it is opened, and autograde opens it
several times per notebook (the cell overwriting, the kernelspec, each gradebook-writing step, the
submission's set-up). A new engine starts with an empty statement cache, so every query of every
step is compiled anew, in the recorder and again in the worker (benchmarks/results.md gives what it
cost). With ``apply()``, a process's gradebooks reuse one engine (its pool and its compiled
statements) per database URL; sessions, transactions and commits stay nbgrader's own.
"""
import nbgrader.api

_engines: dict = {}
_create_engine = getattr(nbgrader.api, "create_engine", None)  # None: an nbgrader that opens engines otherwise


def _shared_engine(url, **options):
    key = (str(url), tuple(sorted(options.items())))
    if key not in _engines:
        _engines[key] = _create_engine(url, **options)
    return _engines[key]


UPSTREAM = ("nbgrader.api.Gradebook.__init__",)


def apply() -> None:
    """From now on, this process's gradebooks share one engine per database (idempotent).

    With an nbgrader that no longer opens its engines through ``nbgrader.api.create_engine``,
    nothing changes: grading is only slower, never different.
    """
    if _create_engine is not None:
        nbgrader.api.create_engine = _shared_engine


def undo() -> None:
    if _create_engine is not None:
        nbgrader.api.create_engine = _create_engine
