# expect: still switched off
# set_grad_enabled(False) as a plain call lasts past the function: every later cell records nothing.
def evaluate(model, x):
    was_training = model.training
    model.eval()
    torch.set_grad_enabled(False)
    out = model(x)
    model.train(was_training)
    return out
