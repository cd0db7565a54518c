# expect: which has no parameters
# model[-1] is the last module, but when it is an activation it has nothing to train.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    model[-1].requires_grad_(True)
