"""What an answer's run sends to the grader: plain data, as JSON, never code.

The grader judges answers in its own process. The student's kernel only runs the answer and sends
back what it saw: tensors, arrays, numbers, strings, bools, lists and dicts. Decoding builds values
of those types and nothing else (no pickle, no import, no call), so a notebook that rewrites its
own kernel can change the values it sends, never the code that judges them.

The self-check sends every observation through the same encoding, so the student's kernel judges
exactly what the grader would have received.
"""
import base64
import hashlib
import json
from dataclasses import dataclass

import numpy as np
import torch

MIME = "application/vnd.autograd-course.observation+json"

_DTYPES = {str(d): d for d in (torch.float16, torch.bfloat16, torch.float32, torch.float64, torch.complex64,
                                torch.complex128, torch.int8, torch.int16, torch.int32, torch.int64,
                                torch.uint8, torch.bool)}
_NUMPY_DTYPES = {"float16", "float32", "float64", "complex64", "complex128", "int8", "int16", "int32",
                 "int64", "uint8", "bool"}
MAX_ELEMENTS = 10_000_000  # a lying kernel must not make the grader allocate without bound
MAX_TEXT = 64 * 1024**2  # characters of one observation: checked before a byte of it is parsed


class Unreadable(ValueError):
    """The data sent back is not something an answer's run can produce."""


@dataclass(frozen=True)
class Flags:
    """What autograd said about a tensor when it was observed: the values alone lose this."""
    requires_grad: bool
    is_leaf: bool
    grad_fn: str | None


def flags_of(t: torch.Tensor) -> Flags:
    """The flags recorded with an observed tensor (or read off a live one)."""
    seen = getattr(t, "_observed_flags", None)
    if seen is not None:
        return seen
    return Flags(bool(t.requires_grad), bool(t.is_leaf), None if t.grad_fn is None else type(t.grad_fn).__name__)


@dataclass(frozen=True)
class Sealed:
    """An expected value the self-check may compare with but must not show: a prediction's answer.

    The grader's references seal such values; what students have holds only the digest, which
    says whether a guess is right without saying what is.
    """
    digest: str

    @staticmethod
    def of(value) -> "Sealed":
        text = json.dumps(encode(value), sort_keys=True)
        return Sealed(hashlib.sha256(f"autograd-course:{text}".encode()).hexdigest())

    def matches(self, value) -> bool:
        try:
            return Sealed.of(value) == self
        except Unreadable:
            return False


def _encode_tensor(t: torch.Tensor) -> dict:
    f = flags_of(t)
    data = t.detach().cpu().contiguous()
    raw = data.view(torch.int16) if data.dtype == torch.bfloat16 else data
    return {"__tensor__": str(t.dtype), "shape": list(t.shape), "requires_grad": f.requires_grad,
            "is_leaf": f.is_leaf, "grad_fn": f.grad_fn,
            "data": base64.b64encode(raw.numpy().tobytes()).decode()}


def encode(value):
    """Plain data for JSON; refuses anything else so a check can't smuggle an object across."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, torch.Tensor):
        if value.layout != torch.strided or str(value.dtype) not in _DTYPES:
            raise Unreadable(f"cannot send a {value.layout} tensor of dtype {value.dtype}")
        return _encode_tensor(value)
    if isinstance(value, np.ndarray):
        if value.dtype.name not in _NUMPY_DTYPES:
            raise Unreadable(f"cannot send an array of dtype {value.dtype}")
        return {"__ndarray__": value.dtype.name, "shape": list(value.shape),
                "data": base64.b64encode(np.ascontiguousarray(value).tobytes()).decode()}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, Sealed):
        return {"__sealed__": value.digest}
    if isinstance(value, Flags):
        return {"__flags__": [value.requires_grad, value.is_leaf, value.grad_fn]}
    if isinstance(value, (list, tuple)):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        return {str(k): encode(v) for k, v in value.items()}
    raise Unreadable(f"cannot send a {type(value).__name__}")


def _count(shape) -> int:
    if not isinstance(shape, list) or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise Unreadable(f"bad shape {shape!r}")
    total = 1
    for n in shape:
        total *= n
    if total > MAX_ELEMENTS:
        raise Unreadable(f"a tensor of {total} elements is too large to judge")
    return total


def _decode_tensor(d: dict) -> torch.Tensor:
    dtype = _DTYPES.get(d["__tensor__"])
    if dtype is None:
        raise Unreadable(f"unknown dtype {d['__tensor__']!r}")
    count = _count(d["shape"])
    raw = base64.b64decode(d["data"], validate=True)
    storage = torch.int16 if dtype == torch.bfloat16 else dtype
    size = torch.empty((), dtype=storage).element_size()
    if len(raw) != count * size:
        raise Unreadable("tensor data does not match its shape")
    t = torch.frombuffer(bytearray(raw), dtype=storage) if raw else torch.empty(0, dtype=storage)
    t = t.view(torch.bfloat16) if dtype == torch.bfloat16 else t
    t = t.reshape(d["shape"]).clone()
    t._observed_flags = Flags(bool(d["requires_grad"]), bool(d["is_leaf"]),
                              d["grad_fn"] if isinstance(d["grad_fn"], str) else None)
    return t


def _decode_ndarray(d: dict) -> np.ndarray:
    if d["__ndarray__"] not in _NUMPY_DTYPES:
        raise Unreadable(f"unknown dtype {d['__ndarray__']!r}")
    count = _count(d["shape"])
    raw = base64.b64decode(d["data"], validate=True)
    dtype = np.dtype(d["__ndarray__"])
    if len(raw) != count * dtype.itemsize:
        raise Unreadable("array data does not match its shape")
    return np.frombuffer(raw, dtype=dtype).reshape(d["shape"]).copy()


def decode(value):
    """The inverse of ``encode``, for data read from an untrusted kernel: types are checked."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, list):
        return [decode(v) for v in value]
    if isinstance(value, dict):
        try:
            if "__tensor__" in value:
                return _decode_tensor(value)
            if "__ndarray__" in value:
                return _decode_ndarray(value)
            if "__sealed__" in value:
                return Sealed(str(value["__sealed__"]))
            if "__flags__" in value:
                r, leaf, fn = value["__flags__"]
                return Flags(bool(r), bool(leaf), fn if isinstance(fn, str) else None)
        except (KeyError, TypeError, ValueError, RuntimeError, OverflowError, MemoryError) as error:
            raise Unreadable(str(error)[:200]) from None
        return {k: decode(v) for k, v in value.items()}
    raise Unreadable(f"unexpected {type(value).__name__}")


def dumps(value) -> str:
    return json.dumps(encode(value), allow_nan=True)


def loads(text: str):
    """Decode what a kernel sent; anything it could send that is not an observation is ``Unreadable``.

    The size is checked first, then any failure of the parser (a 5000-digit integer is a ValueError,
    deep nesting a RecursionError) is the sender's, never the grader's.
    """
    if not isinstance(text, (str, bytes)):
        raise Unreadable(f"an observation is text, not a {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise Unreadable(f"an observation of {len(text)} characters is too large to judge")
    try:
        return decode(json.loads(text))
    except Unreadable:
        raise
    except (ValueError, RecursionError, OverflowError, MemoryError, TypeError) as error:
        raise Unreadable(str(error)[:200]) from None


def round_trip(value):
    """What the grader would receive: the self-check judges this, so both see the same."""
    return loads(dumps(value))
