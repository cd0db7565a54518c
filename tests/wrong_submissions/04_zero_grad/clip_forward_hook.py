# expect: a forward hook runs during the forward pass and sees a module's inputs and outputs, not gradients
# Clamps each layer's output with a forward hook: the forward values change, the gradients are never clipped.
def clip_with_hook(model, max_value):
    return [m.register_forward_hook(lambda module, args, out: out.clamp(-max_value, max_value))
            for m in model.modules() if list(m.parameters(recurse=False))]
