# style: Tensor.clip (clamp's alias) with keyword bounds, handles appended in a loop over named_parameters
def clip_with_hook(model, max_value):
    handles = []
    for _, p in model.named_parameters():
        handles.append(p.register_hook(lambda g: g.clip(min=-max_value, max=max_value)))
    return handles
