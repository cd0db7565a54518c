# expect: backward() failed because optimizer.step() ran before it
# A reader's answer: step() (on the leftovers in .grad) right after the forward pass, backward()
# last; step() changes the weights the forward pass saved, and backward() refuses.
def train_step(model, optimizer, x, y, loss_fn):
    loss = loss_fn(model(x), y)
    optimizer.step()
    optimizer.zero_grad()
    loss.backward()
    return loss.item()
