"""nbval compares a notebook's stored outputs with fresh ones; here printed numbers may differ by one
unit in their last printed digit.

The stored outputs were computed on another machine, and another CPU may round a float's last bit
differently, which can move a printed digit (0.12345 rounds to 0.1235 on one, 0.1234 on the other).
Text, integers, structure and the count of outputs are still compared exactly, so a changed value or
message still fails the cell.
"""
import re
from collections import defaultdict

from nbval import plugin

NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _unit(token: str) -> float:
    """One unit in the last printed place: 1e-4 for 0.1234, 1e-6 for 1.23e-04; 0 for an integer."""
    mantissa, _, exponent = token.lower().partition("e")
    if "." not in mantissa and not exponent:
        return 0.0
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (int(exponent or 0) - decimals)


def same_up_to_last_digits(stored: str, fresh: str) -> bool:
    if not isinstance(stored, str) or not isinstance(fresh, str):
        return stored == fresh
    if NUMBER.split(stored) != NUMBER.split(fresh):
        return False
    for a, b in zip(NUMBER.findall(stored), NUMBER.findall(fresh)):
        if a != b and abs(float(a) - float(b)) > max(_unit(a), _unit(b)) * (1 + 1e-9):
            return False
    return True


def _flatten(cell, outputs, skip) -> dict[str, list]:
    """nbval's own view of a cell's outputs: values by output field and MIME type, sanitised."""
    found = defaultdict(list)
    for output in plugin.transform_streams_for_comparison(outputs):
        for key, value in output.items():
            if key in skip:
                continue
            if key == "data":
                for mime, data in value.items():
                    if mime not in skip:
                        found[mime].append(cell.sanitize(data))
            else:
                found[key].append(cell.sanitize(value))
    return found


def outputs_agree(cell, test, ref, skip) -> bool:
    fresh, stored = _flatten(cell, test, skip), _flatten(cell, ref, skip)
    return fresh.keys() == stored.keys() and all(
        len(fresh[k]) == len(stored[k]) and all(map(same_up_to_last_digits, stored[k], fresh[k])) for k in stored)


def install() -> None:
    exact = plugin.IPyNbCell.compare_outputs
    if getattr(exact, "tolerates_last_digits", False):
        return

    def compare_outputs(self, test, ref, skip_compare=None):
        if exact(self, test, ref, skip_compare):
            return True
        if outputs_agree(self, test, ref, skip_compare or self.parent.skip_compare):
            self.comparison_traceback = []
            return True
        return False

    compare_outputs.tolerates_last_digits = True
    plugin.IPyNbCell.compare_outputs = compare_outputs
