# expect: keeps something
# expect: gave a different result when it was called again
# A learning rate that shrinks with each call, counted in a global: the step depends on the calls before.
calls = 0


def sgd_step(params, lr):
    global calls
    calls += 1
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr / calls * p.grad
                p.grad = None
