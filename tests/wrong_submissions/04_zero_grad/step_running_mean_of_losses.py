# expect: gave a different result when it was called again with the same inputs
# The step is right, but it returns the mean of every loss seen so far, kept in a global.
_losses = []


def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    _losses.append(loss.item())
    return sum(_losses) / len(_losses)
