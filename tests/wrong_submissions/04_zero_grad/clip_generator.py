# expect: generator object, which is lazy
# A generator expression where a list comprehension belongs: no hook is registered.
def clip_with_hook(model, max_value):
    return (p.register_hook(lambda g: g.clamp(-max_value, max_value)) for p in model.parameters())
