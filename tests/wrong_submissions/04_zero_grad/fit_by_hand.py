# expect: no optimizer.step() ran
# Gradient descent written by hand: the exercise asks for torch.optim.SGD.
def fit_linear(x, y, steps, lr):
    model = nn.Linear(x.shape[1], y.shape[1])
    nn.init.zeros_(model.weight)
    nn.init.zeros_(model.bias)
    for _ in range(steps):
        model.zero_grad()
        nn.MSELoss()(model(x), y).backward()
        with torch.no_grad():
            for p in model.parameters():
                p -= lr * p.grad
    return model
