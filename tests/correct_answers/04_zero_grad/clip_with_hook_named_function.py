# style: a named hook function and torch.clamp, handles collected in a loop
def clip_with_hook(model, max_value):
    def clip(grad):
        return torch.clamp(grad, min=-max_value, max=max_value)

    handles = []
    for _, p in model.named_parameters():
        handles.append(p.register_hook(clip))
    return handles
