"""two_losses: the gradients of both losses through the one shared graph, for each x."""
import torch

from course.checks.technique import oracle_leaf


def expected(inputs):
    loss1, loss2 = [], []
    for x in inputs["xs"]:
        x0 = oracle_leaf(x)
        h0 = torch.sin(x0) * x0
        loss1.append(torch.autograd.grad(h0.sum(), x0, retain_graph=True)[0])
        loss2.append(torch.autograd.grad((h0**2).mean(), x0)[0])
    return {"loss1": loss1, "loss2": loss2}
