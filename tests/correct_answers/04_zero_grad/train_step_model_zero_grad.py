# style: the model's zero_grad() instead of the optimizer's, the float taken with float()
def train_step(model, optimizer, x, y, loss_fn):
    model.zero_grad(set_to_none=True)
    prediction = model(x)
    loss = loss_fn(prediction, y)
    loss.backward()
    optimizer.step()
    return float(loss.detach())
