"""Kept for callers of the old name: the fence now lives in ``kernels/`` (see ``kernels/fence.py``)."""
from .kernels.fence import namespaces_refused as probe

__all__ = ["probe"]
