# expect: your hook changed the gradient it was given in place
# Clamps the gradient it is handed in place and returns it: .grad comes out clipped, but every other
# holder of that tensor (here the caller's own hook, registered first) sees its values change.
def clip_with_hook(model, max_value):
    return [p.register_hook(lambda grad: grad.clamp_(-max_value, max_value)) for p in model.parameters()]
