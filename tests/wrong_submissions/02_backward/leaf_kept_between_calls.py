# expect: gave a different result when it was called again with the same inputs
# One leaf copy per shape, made on the first call and reused: its .grad adds up from call to call.
leaves = {}


def grad_via_backward(f, x):
    leaf = leaves.setdefault(tuple(x.shape), x.detach().clone().requires_grad_(True))
    with torch.no_grad():
        leaf.copy_(x)
    f(leaf).backward()
    return leaf.grad.clone()
