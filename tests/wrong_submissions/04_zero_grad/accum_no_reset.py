# expect: plus what .grad held before
def accumulated_grads(model, batches, loss_fn):
    for x, y in batches:
        (loss_fn(model(x), y) / len(batches)).backward()
