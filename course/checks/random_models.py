"""Models, losses and leftover gradients drawn from a trial's seeded generator, never from torch's own,
so that a case replays from its seed alone."""
import torch
from torch import nn

from . import random_inputs as rand

# Losses whose two arguments cannot be swapped unnoticed (loss(prediction, target) is not
# loss(target, prediction), as it is for MSE), each with the range its targets are drawn from.
LOSSES = [("BCEWithLogitsLoss", nn.BCEWithLogitsLoss), ("PoissonNLLLoss", nn.PoissonNLLLoss)]
TARGET_RANGES = {"BCEWithLogitsLoss": (0.0, 1.0), "PoissonNLLLoss": (0.0, 3.0)}


def filled(model: nn.Module, rng) -> nn.Module:
    """Parameters drawn from the trial's generator, so the case replays from its seed alone."""
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(rand.tensor(rng, p.shape, p.dtype, low=-1.0, high=1.0))
    return model


def random_mlp(rng, n_in: int, n_out: int) -> nn.Module:
    """A small float64 network whose parameters come from the seeded generator, not torch's RNG."""
    hidden = rand.integer(rng, 2, 5)
    model = nn.Sequential(nn.Linear(n_in, hidden), nn.Tanh(), nn.Linear(hidden, n_out)).double()
    with torch.no_grad():
        for p in model.parameters():
            p.copy_(rand.tensor(rng, p.shape, torch.float64, -1.0, 1.0))
    return model


def random_loss(rng) -> tuple[str, nn.Module]:
    name, make = LOSSES[rand.integer(rng, 0, len(LOSSES) - 1)]
    return name, make()


def targets(rng, loss_name: str, shape) -> torch.Tensor:
    """float64 targets in the range the loss expects (probabilities, counts)."""
    low, high = TARGET_RANGES[loss_name]
    return rand.tensor(rng, shape, torch.float64, low, high)


def plant_junk(rng, model: nn.Module) -> list[torch.Tensor]:
    """Fill every .grad with leftovers, as a previous step would have; returns copies of them."""
    junk = []
    for p in model.parameters():
        p.grad = rand.tensor(rng, p.shape, torch.float64)
        junk.append(p.grad.clone())
    return junk
