"""Run a mistake on purpose and print PyTorch's own words about it.

Lessons show pitfalls live: the message printed is whatever the installed PyTorch says. If the
mistake stops failing (a new PyTorch, an edited lesson), the cell fails loudly instead of
teaching something that is no longer true.
"""
import re
import warnings
from contextlib import contextmanager

import torch

# Where in PyTorch's C++ sources a warning was raised: noise to a learner, and a path that changes
# with every build of PyTorch.
_TRIGGERED_AT = re.compile(r"\s*\(Triggered internally at [^)]*\)")


def _without_source_location(text: str) -> str:
    return _TRIGGERED_AT.sub("", text)


@contextmanager
def shows_error(expected: type[BaseException] = Exception):
    try:
        yield
    except expected as error:
        print(f"{type(error).__name__}: {_without_source_location(str(error))}")
    else:
        raise AssertionError("this example was meant to fail, but it ran without an error")


@contextmanager
def shows_warning():
    # Some of PyTorch's warnings are given once per process (math.sin of a tensor that requires
    # grad): warn-always makes a cell run again, or after the learner met the warning, show it too.
    warn_always = torch.is_warn_always_enabled()
    torch.set_warn_always(True)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield
    finally:
        torch.set_warn_always(warn_always)
    if not caught:
        raise AssertionError("this example was meant to warn, but it did not")
    for warning in caught:
        print(f"{warning.category.__name__}: {_without_source_location(str(warning.message))}")


@contextmanager
def shows_anomaly(expected: type[BaseException] = RuntimeError):
    """A failing backward() run in anomaly mode, shown as a learner needs it: the error, then the
    first line of anomaly mode's warning and the last line of its traceback (the forward line that
    made the tensor in question), without the warning machinery in the lesson's cell."""
    with warnings.catch_warnings(record=True) as caught, torch.autograd.set_detect_anomaly(True):
        warnings.simplefilter("always")
        with shows_error(expected):
            yield
    reports = [str(w.message).splitlines() for w in caught if "Traceback of forward call" in str(w.message)]
    if not reports:
        raise AssertionError("this example was meant to show anomaly mode's traceback, but it gave none")
    lines = [line for line in reports[0] if line.strip() and not line.strip().startswith("(Triggered internally")]
    print(lines[0])
    print("   ", lines[-1].strip())
