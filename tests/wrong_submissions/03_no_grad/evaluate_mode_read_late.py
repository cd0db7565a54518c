# expect: put it back the way you found it
# Reads model.training after model.eval(): it is always False then, so train mode is never restored.
def evaluate(model, x):
    model.eval()
    was_training = model.training
    with torch.no_grad():
        out = model(x)
    model.train(was_training)
    return out
