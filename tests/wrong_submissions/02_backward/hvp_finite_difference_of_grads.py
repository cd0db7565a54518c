# expect: evaluates f at points other than x
# Gradients at x + eps v and x - eps v, differenced: right to ~1e-9, no second differentiation.
def hvp(f, x, v):
    eps = 1e-5
    def grad_at(point):
        point = point.detach().clone().requires_grad_(True)
        (g,) = torch.autograd.grad(f(point), point)
        return g
    return (grad_at(x + eps * v) - grad_at(x - eps * v)) / (2 * eps)
