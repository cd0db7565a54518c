# expect: every parameter is frozen, so nothing can train: model[-1] (here model[
# The output layer switched on first, then the whole model frozen: the second call undoes the first.
def freeze_all_but_output(model):
    model[-1].requires_grad_(True)
    model.requires_grad_(False)
