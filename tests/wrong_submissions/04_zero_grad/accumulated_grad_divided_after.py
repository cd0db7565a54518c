# expect: must add up to 1
# A reader's answer: divides .grad.data in place after the loop but by the number of rows.
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    for xb, yb in batches:
        loss_fn(model(xb), yb).backward()
    n = sum(len(xb) for xb, _ in batches)
    for p in model.parameters():
        p.grad.data /= n
