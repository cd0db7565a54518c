# expect: a forward hook runs during the forward pass and sees a module's inputs and outputs, not gradients
# Clamps each layer's input before it runs: a forward pre-hook changes values, not gradients.
def clip_with_hook(model, max_value):
    return [m.register_forward_pre_hook(lambda module, args: tuple(a.clamp(-max_value, max_value) for a in args))
            for m in model.children()]
