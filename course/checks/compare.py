"""Closeness with tolerances that suit each dtype, as torch.testing chooses them."""
import torch

# rtol, atol per dtype: float32 results of different but correct orders of operations
# differ by about 1e-6, float64 by about 1e-15.
TOLERANCES = {
    torch.float16: (1e-3, 1e-5),
    torch.bfloat16: (1.6e-2, 1e-5),
    torch.float32: (1.3e-6, 1e-5),
    torch.float64: (1e-7, 1e-7),
    torch.complex64: (1.3e-6, 1e-5),
    torch.complex128: (1e-7, 1e-7),
}


def tolerances(dtype: torch.dtype) -> tuple[float, float]:
    return TOLERANCES.get(dtype, (0.0, 0.0))


def close(actual: torch.Tensor, expected: torch.Tensor) -> bool:
    """Same shape and values within the expected tensor's dtype tolerance (NaNs never match)."""
    if actual.shape != expected.shape:
        return False
    rtol, atol = tolerances(expected.dtype)
    a = actual.detach().to(expected.dtype)
    return bool(torch.allclose(a, expected.detach(), rtol=rtol, atol=atol))


def largest_difference(actual: torch.Tensor, expected: torch.Tensor) -> tuple[float, tuple]:
    """The worst element, so a message can point at it."""
    diff = (actual.detach().to(expected.dtype) - expected.detach()).abs()
    flat = int(torch.argmax(diff.reshape(-1)))
    index = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), diff.shape)) if diff.dim() else ()
    return float(diff.reshape(-1)[flat]), index


def same_number(a: float, b: float) -> bool:
    """Two Python floats equal within a float64 tolerance (a loss, a norm)."""
    return abs(a - b) <= 1e-9 + 1e-7 * abs(b)
