# expect: your code switched off `x.requires_grad` on the tensor it was given
# detach_() detaches x itself, the caller's leaf, not a copy: "work on a copy that requires grad"
# would be the wrong fix here, where x must stay in the graph.
def stop_gradient_product(x):
    constant = x.detach_() ** 2
    return x * constant
