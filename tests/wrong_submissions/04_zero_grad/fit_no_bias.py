# expect: it was built with bias=False
# No bias, so nothing to zero but the weight: a line through the origin.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1], bias=False)
    with torch.no_grad():
        model.weight.zero_()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
    return model
