# style: PyTorch's SGD on the tensors that have a .grad, built only when there is one
def sgd_step(params, lr):
    with_grad = [p for p in params if p.grad is not None]
    if with_grad:
        optimizer = torch.optim.SGD(with_grad, lr=lr)
        optimizer.step()
        optimizer.zero_grad(set_to_none=True)
