# expect: the arguments are swapped
# Target first, prediction second, in every micro-batch's loss.
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    for x, y in batches:
        (loss_fn(y, model(x)) / len(batches)).backward()
