# expect: times the full-batch gradient: the scales of the
# A reader's answer: divides each loss by the rows in the micro-batch instead of by k.
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    for xb, yb in batches:
        (loss_fn(model(xb), yb) / len(xb)).backward()
