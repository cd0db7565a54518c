# expect: new Parameter objects
# "Clears" the leftover gradients by giving the model fresh Parameters: the optimizer still holds the old ones.
def train_step(model, optimizer, x, y, loss_fn):
    for module in model.modules():
        for name, p in list(module.named_parameters(recurse=False)):
            setattr(module, name, nn.Parameter(p.detach().clone()))
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
