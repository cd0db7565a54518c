# expect: must add up to 1
# Divides each micro-batch's loss by its number of rows, not by the number of micro-batches.
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    for x, y in batches:
        (loss_fn(model(x), y) / len(x)).backward()
