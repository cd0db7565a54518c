# expect: it is rounded
# Rounds the loss for a tidy printout.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return round(loss.item(), 2)
