# expect: (with detach() or .data) came too late
# A reader's answer: .data on the input and on the output; the forward pass still records a graph
# through the parameters, and .data cuts the result off it only afterwards.
def evaluate(model, x):
    was_training = model.training
    model.eval()
    out = model(x.data).data
    model.train(was_training)
    return out
