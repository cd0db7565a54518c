# expect: carries a graph
# eval() switches Dropout off but autograd still records the forward pass.
def evaluate(model, x):
    was_training = model.training
    model.eval()
    out = model(x)
    model.train(was_training)
    return out
