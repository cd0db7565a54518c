# expect: computed before the step
# Returns the loss of the updated model: a second forward pass after step().
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss_fn(model(x), y).backward()
    optimizer.step()
    return loss_fn(model(x), y).item()
