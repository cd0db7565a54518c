# expect: switched off requires_grad
# Freezing the parameters also stops the recording, but it changes the caller's model for good.
def evaluate(model, x):
    was_training = model.training
    model.eval()
    model.requires_grad_(False)
    out = model(x)
    model.train(was_training)
    return out
