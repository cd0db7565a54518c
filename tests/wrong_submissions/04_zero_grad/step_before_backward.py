# expect: because step() ran before backward() had filled it
# The four calls, with step() and backward() swapped: step() finds .grad empty.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    optimizer.step()
    loss.backward()
    return loss.item()
