# expect: as building H row by row
# A reader's answer: H built one row per element of g (create_graph=True, then a differentiation per row),
# then H @ v: right numbers, but H itself is what the exercise asks to do without.
def hvp(f, x, v):
    xc = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(xc), xc, create_graph=True)
    rows = [torch.autograd.grad(g[i], xc, retain_graph=True)[0] for i in range(g.numel())]
    return torch.stack(rows) @ v
