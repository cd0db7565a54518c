# expect: your code built a tensor (torch.tensor(...)) while predicting
# Builds the tensors with torch.tensor and reads the flags instead of predicting them.
import torch


def predict_flags(a_requires, b_requires):
    a = torch.tensor([1.0, 2.0], requires_grad=a_requires)
    b = torch.tensor([3.0, 4.0], requires_grad=b_requires)
    exprs = {"a * b": a * b, "a.detach()": a.detach(), "a.double()": a.double(),
             "a + b.detach()": a + b.detach(), "nn.Parameter(b)": torch.nn.Parameter(b)}
    return {key: (t.requires_grad, t.is_leaf) for key, t in exprs.items()}
