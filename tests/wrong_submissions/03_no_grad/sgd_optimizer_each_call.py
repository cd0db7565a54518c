# expect: torch.optim.SGD refuses an empty list of parameters
# PyTorch's own SGD built inside the function: right, except for an empty list.
def sgd_step(params, lr):
    optimizer = torch.optim.SGD(params, lr=lr)
    optimizer.step()
    optimizer.zero_grad()
