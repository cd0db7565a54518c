# expect: and after evaluate() it requires grad again
# A loop that turns each flag off, then on, instead of no_grad().
def evaluate(model, x):
    was_training = model.training
    model.eval()
    for p in model.parameters():
        p.requires_grad = False
    out = model(x)
    for p in model.parameters():
        p.requires_grad = True
    model.train(was_training)
    return out
