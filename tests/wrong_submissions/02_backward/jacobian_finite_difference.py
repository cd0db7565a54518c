# expect: evaluates f at points other than x
def jacobian_rows(f, x):
    eps = 1e-6
    columns = []
    for i in range(x.numel()):
        step = torch.zeros_like(x)
        step[i] = eps
        columns.append((f(x + step) - f(x - step)) / (2 * eps))
    return torch.stack(columns, dim=1)
