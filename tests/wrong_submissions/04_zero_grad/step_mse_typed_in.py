# expect: not of the loss_fn given
# The loss of the lesson's examples typed in, instead of the loss_fn argument.
def train_step(model, optimizer, x, y, loss_fn):
    optimizer.zero_grad()
    loss = nn.MSELoss()(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
