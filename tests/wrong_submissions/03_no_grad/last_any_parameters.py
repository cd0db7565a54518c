# expect: asked a parameter for one True or False
# any(layer.parameters()) to find the layers with parameters: each weight is asked for its truth value.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    with_parameters = [layer for layer in model if any(layer.parameters())]
    with_parameters[-1].requires_grad_(True)
