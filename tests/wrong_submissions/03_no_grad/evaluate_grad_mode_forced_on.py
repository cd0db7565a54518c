# expect: inside its own `with torch.no_grad():` block
# Restores "recording on" rather than the mode it found: wrong inside a validation loop's no_grad().
def evaluate(model, x):
    was_training = model.training
    model.eval()
    torch.set_grad_enabled(False)
    out = model(x)
    torch.set_grad_enabled(True)
    model.train(was_training)
    return out
