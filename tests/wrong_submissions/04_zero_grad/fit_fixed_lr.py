# expect: not the lr given
# A learning rate typed in instead of the lr argument.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
    return model
