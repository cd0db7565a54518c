"""grad_norm: the global norm of every .grad, and the norms the likeliest slips give."""
import torch
from torch import nn


def expected(inputs):
    with_grad = [p for p in inputs["model"].parameters() if p.grad is not None]
    grads = [p.grad for p in with_grad]
    return {"norm": float(nn.utils.get_total_norm(grads)),
            "sum_of_norms": sum(float(torch.linalg.vector_norm(g)) for g in grads),
            # the mistakes the judge names: the norm of p instead of p.grad
            "of_parameters": float(nn.utils.get_total_norm([p.detach() for p in with_grad])),
            "per_parameter": [float(torch.linalg.vector_norm(g)) for g in grads]}
