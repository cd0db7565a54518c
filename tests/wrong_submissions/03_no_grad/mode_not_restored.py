# expect: put it back the way you found it
# Always switching back to train mode breaks a caller whose model was in eval mode.
def evaluate(model, x):
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.train()
    return out
