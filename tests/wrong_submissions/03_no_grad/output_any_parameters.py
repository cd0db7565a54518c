# expect: asked a parameter for one True or False
# any() of a layer's parameters asks each weight tensor for its truth value.
def freeze_all_but_output(model):
    for layer in model[:-1]:
        if any(layer.parameters()):
            layer.requires_grad_(False)
