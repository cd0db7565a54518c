"""Validate a notebook with nbgrader's Validator and return a real verdict.

``nbgrader validate`` exits 0 even when tests fail; its Python API tells us which cells failed.
"""
from nbgrader.validator import Validator


def failing_cells(path: str, config=None) -> list[str]:
    """Error text of each failing test cell; empty when the notebook passes. ``config``: the course's
    (its ``Authoring.validate_cell_timeout`` and nbgrader's own settings)."""
    from .authoring.settings import Authoring
    validator = Validator(config=config)
    validator.execute_timeout = Authoring(config=config).validate_cell_timeout  # type: ignore[attr-defined]
    results = validator.validate(path)
    failed = results.get("failed", []) + results.get("type_changed", [])
    return [entry.get("error", "") or entry.get("source", "") for entry in failed]
