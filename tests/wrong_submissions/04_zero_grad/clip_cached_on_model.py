# expect: keeps something from one call to the next
# Registers once per model and keeps the handles on it: after the caller removes them, a second
# call on the same model hands back dead handles and clips nothing.
def clip_with_hook(model, max_value):
    if not hasattr(model, "_clip_handles"):
        model._clip_handles = [p.register_hook(lambda g: g.clamp(-max_value, max_value))
                               for p in model.parameters()]
    return model._clip_handles
