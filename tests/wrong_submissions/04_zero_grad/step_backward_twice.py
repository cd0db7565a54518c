# expect: is 2 times the expected gradient
# backward() twice on one loss (retain_graph to make the second one run): .grad holds twice the gradient.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward(retain_graph=True)
    loss.backward()
    optimizer.step()
    return loss.item()
