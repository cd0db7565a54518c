# expect: your function kept another layer training
# expect: the other way round from what was asked
# Keeps the first Linear trainable and freezes every other layer: the first layer is not the one to keep.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    model[0].requires_grad_(True)
