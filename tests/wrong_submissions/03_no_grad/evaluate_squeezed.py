# expect: a squeeze() dropped its dimensions of size 1
# Squeezes the output: right unless a batch has one row or the model one output.
def evaluate(model, x):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(x).squeeze()
    model.train(was_training)
    return out
