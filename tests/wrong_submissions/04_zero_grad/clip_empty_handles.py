# expect: your function returned an empty list: the hooks were registered
# Registers every hook but forgets to keep the handles: the list it returns stays empty.
def clip_with_hook(model, max_value):
    handles = []
    for p in model.parameters():
        p.register_hook(lambda grad: grad.clamp(-max_value, max_value))
    return handles
