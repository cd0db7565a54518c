# expect: optimizer.step() was never called: your code updated them by hand
# A reader's answer: updates p.data by hand with a guessed lr instead of optimizer.step().
def train_step(model, optimizer, x, y, loss_fn):
    model.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    for p in model.parameters():
        p.data -= 0.01 * p.grad
    return loss.item()
