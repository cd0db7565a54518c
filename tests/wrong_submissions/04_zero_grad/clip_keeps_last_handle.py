# expect: still clipped
# The loop overwrites `handle`: only the last hook can be removed.
def clip_with_hook(model, max_value):
    for p in model.parameters():
        handle = p.register_hook(lambda g: g.clamp(-max_value, max_value))
    return [handle]
