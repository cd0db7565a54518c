# expect: not [0, max_value]
# Clamps to [0, max_value]: every negative entry becomes 0.
def clip_with_hook(model, max_value):
    return [p.register_hook(lambda g: g.clamp(0, max_value)) for p in model.parameters()]
