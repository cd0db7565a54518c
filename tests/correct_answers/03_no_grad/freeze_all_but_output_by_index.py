# style: one call per layer, its flag chosen by whether it is the last
def freeze_all_but_output(model):
    for i, layer in enumerate(model):
        layer.requires_grad_(i == len(model) - 1)
