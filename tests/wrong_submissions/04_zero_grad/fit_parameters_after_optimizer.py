# expect: new Parameter objects
# Zeros the model by assigning new Parameters after the optimizer was built: it steps the old ones.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    model.weight = nn.Parameter(torch.zeros(y.shape[1], x.shape[1]))
    model.bias = nn.Parameter(torch.zeros(y.shape[1]))
    for _ in range(steps):
        optimizer.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
    return model
