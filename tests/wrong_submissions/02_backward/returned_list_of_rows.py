# expect: torch.stack() makes one tensor of them
# The rows are right, but returned as a Python list instead of one tensor.
def jacobian_rows(f, x):
    x = x.detach().clone().requires_grad_(True)
    y = f(x)
    rows = []
    for i in range(y.numel()):
        x.grad = None
        y[i].backward(retain_graph=True)
        rows.append(x.grad.clone())
    return rows
