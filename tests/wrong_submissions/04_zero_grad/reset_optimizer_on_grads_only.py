# expect: for parameters of which none has a .grad yet, your code raised ValueError
# A reader's answer: an optimizer over the parameters that have a gradient; when none has one, the
# optimizer gets an empty list and refuses it.
def reset_grads(params, set_to_none):
    with_grad = [p for p in params if p.grad is not None]
    torch.optim.SGD(with_grad, lr=0.0).zero_grad(set_to_none=set_to_none)
