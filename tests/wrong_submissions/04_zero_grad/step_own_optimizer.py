# expect: not on the one it was given
# Builds a new optimizer inside the step, with an lr of its own, instead of using the one passed in.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
