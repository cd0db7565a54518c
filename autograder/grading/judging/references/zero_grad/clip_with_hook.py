"""clip_with_hook: each backward pass's gradients clipped as they arrive, then clipped again at another
threshold after a second call on the same model, and the slips' results."""
import copy

from torch import nn

from ..gradients import parameter_gradients


def expected(inputs):
    model, m = copy.deepcopy(inputs["model"]), inputs["max_value"]
    g1, g2, g3 = ([scale * g for g in parameter_gradients(model, nn.functional.mse_loss, x, y)]
                  for (x, y), scale in zip(inputs["batches"], inputs["scales"]))
    first = [g.clamp(-m, m) for g in g1]
    return {"first": first,
            "second": [a + g.clamp(-m, m) for a, g in zip(first, g2)],  # each pass clipped, then added
            "after_remove": g3,
            "again": [g.clamp(-inputs["max_value_again"], inputs["max_value_again"]) for g in g1],
            "unclipped": g1,
            "upper_only": [g.clamp(max=m) for g in g1],
            "at_zero": [g.clamp(0, m) for g in g1],
            "clip_total": [(a + g).clamp(-m, m) for a, g in zip(first, g2)]}
