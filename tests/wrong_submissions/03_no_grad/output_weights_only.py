# expect: still require grad: every layer before model[
# Freezes each hidden Linear's weight and forgets its bias.
def freeze_all_but_output(model):
    for layer in model[:-1]:
        if isinstance(layer, nn.Linear):
            layer.weight.requires_grad_(False)
