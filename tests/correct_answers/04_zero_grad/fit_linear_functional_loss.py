# style: zeros through .data, nn.functional.mse_loss, both sides flattened alike, the reset after step()
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    model.weight.data.zero_()
    model.bias.data.zero_()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    optimizer.zero_grad()
    for _ in range(steps):
        nn.functional.mse_loss(model(x).reshape(-1), y.reshape(-1)).backward()
        optimizer.step()
        optimizer.zero_grad()
    return model
