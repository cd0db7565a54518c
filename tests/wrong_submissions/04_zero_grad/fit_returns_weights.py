# expect: return the trained nn.Linear
# Trains correctly, then returns the weight and bias instead of the model.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
    return model.weight, model.bias
