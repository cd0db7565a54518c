# expect: `model[-1].requires_grad = ...` set a plain Python attribute on the module
# On a module, `.requires_grad = True` is an ordinary attribute: the output layer stays frozen.
def freeze_all_but_output(model):
    model.requires_grad_(False)
    model[-1].requires_grad = True
