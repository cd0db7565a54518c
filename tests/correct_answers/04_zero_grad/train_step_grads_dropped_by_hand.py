# style: each .grad dropped by hand instead of zero_grad(), torch.autograd.backward for the backward pass
def train_step(model, optimizer, x, y, loss_fn):
    for p in model.parameters():
        p.grad = None
    loss = loss_fn(model(x), y)
    torch.autograd.backward(loss)
    optimizer.step()
    value = loss.item()
    return value
