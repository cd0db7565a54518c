"""sgd_step: the parameters after one plain SGD step."""
import torch


def expected(inputs):
    params = inputs["params"]
    optimizer = torch.optim.SGD(params, lr=inputs["lr"])
    optimizer.step()   # skips parameters whose .grad is None
    after = [p.detach().clone() for p in params]
    for p, g in zip(params, inputs["next_grads"]):
        p.grad = g.clone()
    optimizer.step()   # plain SGD: no memory of the first step
    return {"after": after, "next_step": [p.detach().clone() for p in params]}
