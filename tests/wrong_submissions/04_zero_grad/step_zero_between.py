# expect: zero_grad() ran between backward() and step()
def train_step(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.zero_grad()
    optimizer.step()
    return loss.item()
