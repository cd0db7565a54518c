# expect: a module's backward hook sees the gradients of the module's inputs and outputs, not of its parameters
# A full backward hook on each layer clamps the gradient with respect to the layer's input, not the parameters'.
def clip_with_hook(model, max_value):
    def clip(module, grad_input, grad_output):
        return tuple(None if g is None else g.clamp(-max_value, max_value) for g in grad_input)
    return [m.register_full_backward_hook(clip) for m in model.modules() if list(m.parameters(recurse=False))]
