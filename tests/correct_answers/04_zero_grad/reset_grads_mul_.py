# style: zeros written with fill_(0) inside no_grad(); None set with setattr
def reset_grads(params, set_to_none):
    with torch.no_grad():
        for p in params:
            if p.grad is None:
                continue
            if set_to_none:
                setattr(p, "grad", None)
            else:
                p.grad.fill_(0)
