# expect: keeps something from one call to the next
# A reader's answer: the hooks registered on the first call only, their handles kept in a global;
# every later model gets no hook.
_handles = None


def clip_with_hook(model, max_value):
    global _handles
    if _handles is None:
        _handles = [p.register_hook(lambda g: g.clamp(-max_value, max_value)) for p in model.parameters()]
    return _handles
