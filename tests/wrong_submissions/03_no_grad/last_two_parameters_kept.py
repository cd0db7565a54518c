# expect: still require
# Keeps the last two parameters, a weight and a bias: wrong when the last Linear has no bias.
def freeze_all_but_last(model):
    for p in list(model.parameters())[:-2]:
        p.requires_grad_(False)
