# expect: no parameter has a hook
# Clips the gradients that are there now (none yet) instead of registering hooks for later passes.
def clip_with_hook(model, max_value):
    for p in model.parameters():
        if p.grad is not None:
            p.grad.clamp_(-max_value, max_value)
    return []
