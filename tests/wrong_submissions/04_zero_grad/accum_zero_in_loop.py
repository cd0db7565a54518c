# expect: the last micro-batch only
def accumulated_grads(model, batches, loss_fn):
    for x, y in batches:
        model.zero_grad()
        (loss_fn(model(x), y) / len(batches)).backward()
