# expect: took abs() of the gradient before clamping
# Limits the size with abs() first: every negative gradient comes out positive.
def clip_with_hook(model, max_value):
    return [p.register_hook(lambda g: g.abs().clamp(max=max_value)) for p in model.parameters()]
