# expect: one training step calls it once
# Steps twice with the same gradient.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.step()
    return loss.item()
