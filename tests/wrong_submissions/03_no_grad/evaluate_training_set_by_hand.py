# expect: sets only the outer module's flag
# A reader's answer: sets model.training = False by hand, which does not reach the submodules (Dropout).
def evaluate(model, x):
    was = model.training
    model.training = False
    with torch.no_grad():
        out = model(x)
    model.training = was
    return out
