# expect: your hook changed the gradient it was given in place
# Clamps through .data, "outside autograd": still the very tensor other hooks hold.
def clip_with_hook(model, max_value):
    def clip(grad):
        grad.data.clamp_(-max_value, max_value)
        return grad
    return [p.register_hook(clip) for p in model.parameters()]
