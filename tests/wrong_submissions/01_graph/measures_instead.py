# expect: without building tensors
# Builds the tensors and reads the flags instead of predicting them.
def predict_flags(a_requires, b_requires):
    a = torch.ones(2, requires_grad=a_requires)
    b = torch.ones(2, requires_grad=b_requires)
    built = {"a * b": a * b, "a.detach()": a.detach(), "a.double()": a.double(),
             "a + b.detach()": a + b.detach(), "nn.Parameter(b)": nn.Parameter(b)}
    return {key: (t.requires_grad, t.is_leaf) for key, t in built.items()}
