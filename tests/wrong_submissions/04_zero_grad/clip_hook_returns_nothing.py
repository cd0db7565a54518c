# expect: the clamp never reached .grad
# The hook computes the clamped gradient but does not return it: the gradient flows on unchanged.
def clip_with_hook(model, max_value):
    def clip(grad):
        grad = grad.clamp(-max_value, max_value)
    return [p.register_hook(clip) for p in model.parameters()]
