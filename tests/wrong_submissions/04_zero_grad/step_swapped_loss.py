# expect: the arguments are swapped
# The target first and the prediction second: for a squared error the same, for most losses not.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(y, model(x))
    loss.backward()
    optimizer.step()
    return loss.item()
