"""accumulated_grads: the full batch's gradient, and the last micro-batch's alone."""
import copy

import torch

from ..gradients import parameter_gradients


def expected(inputs):
    model, loss_fn, batches = copy.deepcopy(inputs["model"]), inputs["loss_fn"], inputs["batches"]
    x_all, y_all = torch.cat([b[0] for b in batches]), torch.cat([b[1] for b in batches])
    return {"full": parameter_gradients(model, loss_fn, x_all, y_all),
            "last": parameter_gradients(model, loss_fn, *batches[-1]),
            # the loss's arguments swapped: the slip the judge names
            "swapped": parameter_gradients(model, lambda out, target: loss_fn(target, out), x_all, y_all)}
