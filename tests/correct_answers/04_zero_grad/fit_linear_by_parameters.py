# style: parameters zeroed with nn.init, the loss written out, step after zero_grad(set_to_none=False)
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad(set_to_none=False)
        loss = ((model(x) - y) ** 2).mean()
        loss.backward()
        optimizer.step()
    return model
