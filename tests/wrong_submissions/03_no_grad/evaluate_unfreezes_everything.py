# expect: the caller had frozen
# Freezes the model to stop the recording, then switches every flag back on, the caller's frozen layer too.
def evaluate(model, x):
    was_training = model.training
    model.eval()
    model.requires_grad_(False)
    out = model(x)
    model.requires_grad_(True)
    model.train(was_training)
    return out
