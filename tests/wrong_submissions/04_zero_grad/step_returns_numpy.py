# expect: should be a Python float, got ndarray
# A NumPy value instead of a Python float.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.detach().numpy()
