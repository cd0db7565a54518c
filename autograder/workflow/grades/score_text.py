"""A score as an LMS file or a report cell shows it: the same text everywhere."""

def points(value: float | None) -> str:
    """2.0 -> "2", 1.5 -> "1.5", None -> "" (a blank cell, not a zero)."""
    if value is None:
        return ""
    value = round(float(value), 2)
    return str(int(value)) if value.is_integer() else f"{value:g}"
