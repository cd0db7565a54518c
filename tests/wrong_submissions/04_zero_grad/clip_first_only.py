# expect: has no hook
# Hooks only the first parameter.
def clip_with_hook(model, max_value):
    first = next(iter(model.parameters()))
    return [first.register_hook(lambda g: g.clamp(-max_value, max_value))]
