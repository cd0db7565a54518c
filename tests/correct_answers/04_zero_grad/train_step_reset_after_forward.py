# style: the reset between the forward pass and backward() (the forward pass does not touch .grad); the loss's value via detach().item()
def train_step(model, optimizer, x, y, loss_fn):
    prediction = model(x)
    loss = loss_fn(prediction, y)
    optimizer.zero_grad(set_to_none=False)
    loss.backward()
    optimizer.step()
    return loss.detach().item()
