# expect: built with bias=False, so model[
# Assumes the last layer has a bias: a last Linear without one has bias None.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    last = [layer for layer in model if isinstance(layer, nn.Linear)][-1]
    last.weight.requires_grad_(True)
    last.bias.requires_grad_(True)
