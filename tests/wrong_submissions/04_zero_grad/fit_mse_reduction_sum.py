# expect: your loss sums the squared errors
# nn.MSELoss(reduction="sum"): the squared errors summed, not averaged.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    with torch.no_grad():
        model.weight.zero_()
        model.bias.zero_()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss(reduction="sum")
    for _ in range(steps):
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()
    return model
