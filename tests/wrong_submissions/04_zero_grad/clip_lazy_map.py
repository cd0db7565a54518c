# expect: map object, which is lazy
# map() registers nothing until something iterates over it.
def clip_with_hook(model, max_value):
    return map(lambda p: p.register_hook(lambda g: g.clamp(-max_value, max_value)), model.parameters())
