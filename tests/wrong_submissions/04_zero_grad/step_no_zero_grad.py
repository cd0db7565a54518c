# expect: the gradient step() applied to `model[0].weight` equals the expected gradient plus what .grad held before
def train_step(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
