# expect: clamp both sides
# Clips large positive entries only.
def clip_with_hook(model, max_value):
    return [p.register_hook(lambda g: g.clamp(max=max_value)) for p in model.parameters()]
