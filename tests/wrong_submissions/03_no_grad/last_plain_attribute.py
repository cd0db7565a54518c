# expect: set a plain Python attribute on the module
# Finds the right layer, but `.requires_grad = True` on a module changes none of its parameters.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    [layer for layer in model if list(layer.parameters())][-1].requires_grad = True
