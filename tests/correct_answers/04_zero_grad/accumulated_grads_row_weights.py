# style: each micro-batch's loss weighted by its share of all rows, and the reset with set_to_none=False
def accumulated_grads(model, batches, loss_fn):
    model.zero_grad(set_to_none=False)
    total_rows = sum(len(x) for x, _ in batches)
    for x, y in batches:
        loss = loss_fn(model(x), y) * (len(x) / total_rows)
        torch.autograd.backward(loss)
