# expect: step() came before backward()
# step() where zero_grad() belongs: it applies last step's leftovers, then backward() adds anew.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.step()
    loss = loss_fn(model(x), y)
    loss.backward()
    return loss.item()
