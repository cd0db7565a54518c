# expect: `model[0].requires_grad = ...` set a plain Python attribute on the module
# Assigns the flag to each hidden module instead of calling requires_grad_(False).
def freeze_all_but_output(model):
    for layer in model[:-1]:
        layer.requires_grad = False
