# expect: your loss sums the squared errors
# Sums the squared errors instead of nn.MSELoss()'s mean: every gradient is y.numel() times too big.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        ((model(x) - y) ** 2).sum().backward()
        optimizer.step()
    return model
