# style: walk the layers from the end, freeze everything before the first one found with parameters
def freeze_all_but_last(model):
    found = False
    for layer in reversed(list(model)):
        has = any(True for _ in layer.parameters())
        layer.requires_grad_(has and not found)
        found = found or has
