# expect: took the loss out of autograd
# A reader's answer: takes .item() before backward() (float has no backward).
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y).item()
    loss.backward()
    optimizer.step()
    return loss
