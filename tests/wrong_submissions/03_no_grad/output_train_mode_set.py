# expect: change how layers such as Dropout compute, not which parameters train
# The flags are right, but the model is put in train mode "for fine-tuning": one the caller had in eval mode changes.
def freeze_all_but_output(model):
    model[:-1].requires_grad_(False)
    model.train()
