# expect: f was called on pieces of x
# f called on each element alone: right for a sum of elementwise terms, wrong for a mean or a
# log-sum-exp, and no finite difference (every point is a point of x).
def grad_via_backward(f, x):
    grads = []
    for value in x.reshape(-1):
        value = value.detach().clone().requires_grad_(True)
        f(value).backward()
        grads.append(value.grad)
    return torch.stack(grads).reshape(x.shape)
