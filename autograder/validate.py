"""Validate a notebook with nbgrader's Validator and return a real verdict.

``nbgrader validate`` exits 0 even when tests fail; its Python API tells us which cells failed.
"""
import re
from nbgrader.validator import Validator

from .course_dir import Course


def failing_cells(path: str, config=None) -> list[str]:
    """Error text of each failing test cell; empty when the notebook passes. ``config``: the course's
    (its ``Authoring.validate_cell_timeout`` and nbgrader's own settings)."""
    from .authoring.settings import Authoring
    validator = Validator(config=config)
    validator.execute_timeout = Authoring(config=config).validate_cell_timeout  # type: ignore[attr-defined]
    results = validator.validate(path)
    failed = results.get("failed", []) + results.get("type_changed", [])
    return [entry.get("error", "") or entry.get("source", "") for entry in failed]


def run(args) -> int:
    status, config = 0, Course(args.root).config
    for path in args.notebooks:
        failures = failing_cells(path, config)
        print(f"{path}: {'passes' if not failures else f'{len(failures)} failing test cell(s)'}")
        for failure in failures:
            print("   ", re.sub(r"<[^>]+>", "", failure.strip().splitlines()[-1]) if failure.strip() else "(no message)")
        status = status or (1 if failures else 0)
    return status
