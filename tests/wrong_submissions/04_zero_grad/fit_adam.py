# expect: asks for torch.optim.SGD
# The right loop with another optimizer.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
    return model
