# style: the last nn.Linear found by isinstance, all else frozen parameter by parameter
def freeze_all_but_last(model):
    last = [layer for layer in model if isinstance(layer, nn.Linear)][-1]
    for layer in model:
        for p in layer.parameters():
            p.requires_grad_(layer is last)
