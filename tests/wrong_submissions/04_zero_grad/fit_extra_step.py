# expect: call step() exactly `steps` times
# One step too many: range(steps + 1).
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps + 1):
        optimizer.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
    return model
