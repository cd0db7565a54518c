# expect: every entry of .grad is +
# Replaces every gradient by its sign times the limit: only gradients larger than the limit should change.
import torch


def clip_with_hook(model, max_value):
    return [p.register_hook(lambda g: torch.sign(g) * max_value) for p in model.parameters()]
