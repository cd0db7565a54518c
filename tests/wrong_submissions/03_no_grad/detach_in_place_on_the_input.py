# expect: switched off `x.requires_grad` on the tensor it was given
# A reader's answer: x.detach_() on the input, cuts x itself out of the graph.
def stop_gradient_product(x):
    sq = x**2
    x.detach_()
    return x * sq
