# expect: the parameters changed
# Steps after accumulating, which the exercise leaves to the caller.
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    for x, y in batches:
        (loss_fn(model(x), y) / len(batches)).backward()
    torch.optim.SGD(model.parameters(), lr=0.1).step()
