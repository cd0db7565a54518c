# expect: was reset after the last backward()
# Accumulates correctly, then a trailing zero_grad() throws the result away before the caller's step().
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    for x, y in batches:
        (loss_fn(model(x), y) / len(batches)).backward()
    model.zero_grad()
