"""Student-side helpers for the autograd course: self-checks, hints, drawings.

Nothing here holds an answer: every expected value is computed by PyTorch itself.
"""
