# expect: change how layers such as Dropout compute, not which parameters train
# The right flags, and eval mode on the frozen layers "so that they stay fixed".
def freeze_all_but_last(model):
    model.requires_grad_(False)
    last = [layer for layer in model if list(layer.parameters())][-1]
    last.requires_grad_(True)
    for layer in model:
        if layer is not last:
            layer.eval()
