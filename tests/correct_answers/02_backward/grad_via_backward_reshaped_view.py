# style: f called on a flattened view of the leaf copy (x's values, another shape): .grad keeps x's shape
def grad_via_backward(f, x):
    leaf = x.detach().clone().requires_grad_(True)
    f(leaf.reshape(-1)).backward()
    return leaf.grad
