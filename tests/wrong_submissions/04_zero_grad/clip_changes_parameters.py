# expect: changed the model's parameters
# Clamps the parameters' values as well as their gradients.
def clip_with_hook(model, max_value):
    with torch.no_grad():
        for p in model.parameters():
            p.clamp_(-max_value, max_value)
    return [p.register_hook(lambda g: g.clamp(-max_value, max_value)) for p in model.parameters()]
