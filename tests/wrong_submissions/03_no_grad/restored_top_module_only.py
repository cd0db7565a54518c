# expect: left in the other mode
# Setting model.training by hand restores the container's flag, not its Dropout layers'.
def evaluate(model, x):
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.training = was_training
    return out
