# style: PyTorch's own zero_grad() through a throwaway optimizer, built only when the list has a gradient
def reset_grads(params, set_to_none):
    params = list(params)
    if any(p.grad is not None for p in params):
        torch.optim.SGD(params, lr=0.0).zero_grad(set_to_none=set_to_none)
