# expect: which have no parameters
# Looks one layer back at most: a model ending in two activations has everything frozen.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    last = model[-1] if isinstance(model[-1], nn.Linear) else model[-2]
    last.requires_grad_(True)
