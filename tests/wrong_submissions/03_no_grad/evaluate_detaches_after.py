# expect: recorded and then thrown away
# Eval mode, the mode restored, no graph on the result: but the forward pass recorded one, then dropped it.
def evaluate(model, x):
    was_training = model.training
    model.eval()
    out = model(x).detach()
    model.train(was_training)
    return out
