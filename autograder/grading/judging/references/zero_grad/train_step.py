"""train_step: the batch's loss and the gradients step() must apply, and those of the likeliest slips
(the loss's arguments swapped, nn.MSELoss() typed in)."""
import copy

import torch


def expected(inputs):
    model = copy.deepcopy(inputs["model"])
    loss = inputs["loss_fn"](model(inputs["x"]), inputs["y"])
    grads = torch.autograd.grad(loss, list(model.parameters()))
    # the likeliest slip the judge names: the loss's arguments swapped
    swapped = torch.autograd.grad(inputs["loss_fn"](inputs["y"], model(inputs["x"])), list(model.parameters()))
    # and the loss the lesson's examples use, typed in instead of the loss_fn given
    mse = torch.autograd.grad(torch.nn.functional.mse_loss(model(inputs["x"]), inputs["y"]), list(model.parameters()))
    return {"loss": float(loss.detach()), "grads": list(grads), "swapped": list(swapped), "mse": list(mse)}
