# expect: each step should use the whole of x
# Steps on halves of the data instead of the whole batch.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    half = x.shape[0] // 2
    for i in range(steps):
        part = slice(0, half) if i % 2 == 0 else slice(half, None)
        optimizer.zero_grad()
        nn.MSELoss()(model(x[part]), y[part]).backward()
        optimizer.step()
    return model
