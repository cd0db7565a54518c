# expect: still carries its graph
# Returns the loss tensor itself, not a Python float: the caller would keep the step's graph alive.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss
