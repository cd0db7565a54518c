# expect: times the full-batch gradient
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    for x, y in batches:
        loss_fn(model(x), y).backward()
