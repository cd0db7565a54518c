"""Grading in the trusted process: references, verdicts, the executing preprocessor, kernel limits."""
