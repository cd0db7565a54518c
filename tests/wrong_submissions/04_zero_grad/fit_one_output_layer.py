# expect: one per column of y
# One output typed in: right only when y has one column.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], 1)
    with torch.no_grad():
        model.weight.zero_()
        model.bias.zero_()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
    return model
