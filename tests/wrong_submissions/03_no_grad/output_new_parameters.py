# expect: were replaced
# Wraps each hidden weight and bias in a new frozen Parameter: the model (and an optimizer) held the old ones.
def freeze_all_but_output(model):
    for layer in model[:-1]:
        if isinstance(layer, nn.Linear):
            layer.weight = nn.Parameter(layer.weight.detach(), requires_grad=False)
            layer.bias = nn.Parameter(layer.bias.detach(), requires_grad=False)
