# expect: were replaced
# A copy of the last layer is not the layer the model (and its optimizer) hold.
def freeze_all_but_last(model):
    import copy
    model.requires_grad_(False)
    last = max(i for i, layer in enumerate(model) if list(layer.parameters()))
    model[last] = copy.deepcopy(model[last]).requires_grad_(True)
