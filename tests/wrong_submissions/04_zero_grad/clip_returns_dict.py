# expect: your function returned a dict
# The handles in a dict by name: the caller expects the list register_hook's handles.
def clip_with_hook(model, max_value):
    return {name: p.register_hook(lambda g: g.clamp(-max_value, max_value))
            for name, p in model.named_parameters()}
