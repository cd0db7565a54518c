# expect: still require
# Assumes the last layer has exactly two parameters (weight and bias).
def freeze_all_but_last(model):
    for p in list(model.parameters())[:-2]:
        p.requires_grad_(False)
