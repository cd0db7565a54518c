# expect: detach() returns a new tensor and leaves its input as it is
# A reader's answer: called detach() as if it worked in place, result thrown away.
def stop_gradient_product(x):
    sq = x**2
    sq.detach()
    return x * sq
