# expect: your reset comes after step()
# The reset at the end of the step, for the next one: this step's backward() adds into the old .grad.
def train_step(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    optimizer.zero_grad()
    return loss.item()
