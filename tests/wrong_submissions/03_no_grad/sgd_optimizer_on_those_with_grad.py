# expect: torch.optim.SGD refuses an empty list of parameters
# Hands the optimizer only the tensors with a .grad: none is left when no .grad is set.
def sgd_step(params, lr):
    with_grad = [p for p in params if p.grad is not None]
    optimizer = torch.optim.SGD(with_grad, lr=lr)
    optimizer.step()
    optimizer.zero_grad()
