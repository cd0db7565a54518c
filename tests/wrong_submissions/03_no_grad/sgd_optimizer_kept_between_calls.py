# expect: an optimizer kept from an earlier call steps that call's tensors
# A reader's answer: keeps state between calls, one torch.optim.SGD built on the first call and reused.
_opt = None
def sgd_step(params, lr):
    global _opt
    if _opt is None:
        _opt = torch.optim.SGD(params, lr=lr)
    _opt.step()
    _opt.zero_grad(set_to_none=True)
