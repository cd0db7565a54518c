# expect: have different dtypes
# A float64 model "for precision", fed the float32 x.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1]).double()
    with torch.no_grad():
        model.weight.zero_()
        model.bias.zero_()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        optimizer.step()
    return model
