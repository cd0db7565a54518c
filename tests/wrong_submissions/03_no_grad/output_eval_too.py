# expect: change how layers such as Dropout compute, not which parameters train
# The flags are right, but the model is also switched to eval mode "since it is not being trained".
def freeze_all_but_output(model):
    model.eval()
    model.requires_grad_(False)
    model[-1].requires_grad_(True)
