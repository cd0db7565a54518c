# style: a new leaf with torch.tensor-like construction, the gradient cloned before it is returned
def grad_via_backward(f, x):
    leaf = torch.empty_like(x).copy_(x).requires_grad_()
    out = f(leaf)
    out.backward()
    return leaf.grad.clone()
