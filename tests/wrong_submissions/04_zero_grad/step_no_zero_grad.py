# expect: the gradient step() applied equals this batch's gradient plus what .grad held before your code ran: nothing reset .grad
def train_step(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
