# expect: has no hook
# Hooks only the last parameter (the loop variable outlives the loop).
def clip_with_hook(model, max_value):
    for p in model.parameters():
        pass
    return [p.register_hook(lambda g: g.clamp(-max_value, max_value))]
