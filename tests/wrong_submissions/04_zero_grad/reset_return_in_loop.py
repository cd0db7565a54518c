# expect: your loop stopped before the end of the list
# A `return` indented one level too deep: only the first parameter with a gradient is reset.
def reset_grads(params, set_to_none):
    for p in params:
        if p.grad is None:
            continue
        if set_to_none:
            p.grad = None
        else:
            p.grad.zero_()
        return
