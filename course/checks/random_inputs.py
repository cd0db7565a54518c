"""One seeded source of random inputs, so any failure can be replayed from its seed."""
import secrets
from contextlib import contextmanager

import torch

DEMO_SEED = 0  # self-checks use small fixed inputs; the grader draws fresh seeds


def fresh_seed() -> int:
    return secrets.randbelow(2**31)


def generator(seed: int) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def seed_global(seed: int) -> None:
    """Seed what draws without a generator (torch.rand, a new layer's weights), as torch.manual_seed
    does on this machine, and an accelerator's generator only where one is in use.

    Not torch.manual_seed itself: where no accelerator has started, it queues a lazy seeding for CUDA,
    XPU and MTIA that formats the caller's whole stack each time, which inside a kernel (deep in
    IPython's frames) costs more than the trial it seeds, and a graded notebook seeds hundreds of times.
    """
    torch.default_generator.manual_seed(seed)
    if torch.cuda.is_initialized():
        torch.cuda.manual_seed_all(seed)


# The whole numbers one drawing of an exercise's inputs took (sizes, dtype choices), while recorded or
# replayed: see same_shapes.
_recording: list[int] | None = None
_replaying: list[int] | None = None


def integer(rng: torch.Generator, low: int, high: int) -> int:
    """A whole number in [low, high], drawn from the seeded generator (or replayed: same_shapes)."""
    value = int(torch.randint(low, high + 1, (), generator=rng))
    if _replaying:
        kept = _replaying.pop(0)
        value = kept if low <= kept <= high else value
    if _recording is not None:
        _recording.append(value)
    return value


@contextmanager
def recording_shapes():
    """Collect the whole numbers drawn inside (shape and dtype choices come from them)."""
    global _recording
    previous, _recording = _recording, []
    try:
        yield _recording
    finally:
        _recording = previous


@contextmanager
def same_shapes(drawn: list[int]):
    """Inside, integer() gives back ``drawn`` in order: inputs drawn from another seed then take the
    recorded draw's shapes and dtypes with values of their own, so an answer that caches on a shape
    returns a stale result there. A drawing that takes another path just draws afresh past the end."""
    global _replaying
    previous, _replaying = _replaying, list(drawn)
    try:
        yield
    finally:
        _replaying = previous


def shape(rng: torch.Generator, ndim: tuple[int, int] = (1, 2), size: tuple[int, int] = (2, 5)) -> tuple:
    return tuple(integer(rng, *size) for _ in range(integer(rng, *ndim)))


def tensor(rng: torch.Generator, shape, dtype=torch.float32, low=-2.0, high=2.0,
           requires_grad=False) -> torch.Tensor:
    """Uniform values; callers pick a range that keeps their function smooth (e.g. away from 0 for log)."""
    t = (torch.rand(shape, generator=rng, dtype=torch.float64) * (high - low) + low).to(dtype)
    return t.requires_grad_(requires_grad)


def away_from_zero(rng: torch.Generator, shape, dtype=torch.float32, low=0.5, high=2.0,
                   requires_grad=False) -> torch.Tensor:
    """Values with a random sign and magnitude in [low, high]: safe for 1/x and log|x|."""
    magnitude = tensor(rng, shape, torch.float64, low, high)
    sign = torch.where(torch.rand(shape, generator=rng) < 0.5, -1.0, 1.0).to(torch.float64)
    return (magnitude * sign).to(dtype).requires_grad_(requires_grad)


def float_dtype(rng: torch.Generator) -> torch.dtype:
    """float32 or float64: checks must hold in both, with each dtype's own tolerance."""
    return (torch.float32, torch.float64)[integer(rng, 0, 1)]
