# expect: not part of any graph
# The forward pass under no_grad(), "to save memory": the loss has no graph to go back through.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    with torch.no_grad():
        loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
