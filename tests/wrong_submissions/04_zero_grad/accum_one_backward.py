# expect: one per micro-batch
# One forward pass per micro-batch, but a single backward() of the summed losses: all graphs held at once.
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    total = sum(loss_fn(model(x), y) for x, y in batches) / len(batches)
    total.backward()
