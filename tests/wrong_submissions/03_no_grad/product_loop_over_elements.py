# expect: for a 0-d x (a single number, shape ()) it raised
# A loop over x's elements: right for 1-D and 2-D x, but a 0-d x cannot be iterated.
def stop_gradient_product(x):
    return torch.stack([xi * (xi**2).detach() for xi in x])
