# expect: never left their zero start
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        nn.MSELoss()(model(x), y).backward()
        optimizer.zero_grad()
        optimizer.step()
    return model
