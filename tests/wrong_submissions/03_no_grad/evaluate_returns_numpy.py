# expect: but it is a NumPy array
# Returns the output as NumPy "since no gradient is needed".
def evaluate(model, x):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.train(was_training)
    return out.numpy()
