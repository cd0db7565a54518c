# expect: return the list of handles
# Registers the right hooks but keeps no handle: the caller cannot remove them.
def clip_with_hook(model, max_value):
    for p in model.parameters():
        p.register_hook(lambda g: g.clamp(-max_value, max_value))
