# expect: with its parentheses: model.eval alone does nothing
# Names model.eval without calling it: the model stays in train mode, Dropout still drops.
def evaluate(model, x):
    was_training = model.training
    model.eval
    with torch.no_grad():
        out = model(x)
    model.train(was_training)
    return out
