# expect: plus what .grad held before
# expect: gave a different result when it was called again
# A reader's answer: the reset runs on the first call only (a global flag), so every later call
# adds onto the leftovers in .grad: both judged calls after the other inputs' (the first message), or
# one before them and one after (the second).
_reset_done = False


def accumulated_grads(model, batches, loss_fn):
    global _reset_done
    if not _reset_done:
        model.zero_grad()
        _reset_done = True
    for x, y in batches:
        (loss_fn(model(x), y) / len(batches)).backward()
