# style: zeros assigned into every entry with an Ellipsis slice, under no_grad()
def reset_grads(params, set_to_none):
    with torch.no_grad():
        for p in [q for q in params if q.grad is not None]:
            if set_to_none:
                p.grad = None
            else:
                p.grad[...] = 0.0
