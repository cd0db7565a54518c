"""Run a mistake on purpose and print PyTorch's own words about it.

Lessons show pitfalls live: the message printed is whatever the installed PyTorch says. If the
mistake stops failing (a new PyTorch, an edited lesson), the cell fails loudly instead of
teaching something that is no longer true.
"""
import warnings
from contextlib import contextmanager


@contextmanager
def shows_error(expected: type[BaseException] = Exception):
    try:
        yield
    except expected as error:
        print(f"{type(error).__name__}: {error}")
    else:
        raise AssertionError("this example was meant to fail, but it ran without an error")


@contextmanager
def shows_warning():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        yield
    if not caught:
        raise AssertionError("this example was meant to warn, but it did not")
    for warning in caught:
        print(f"{warning.category.__name__}: {warning.message}")
