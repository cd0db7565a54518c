# expect: dz/dx is 1 everywhere
# The straight-through trick from section 8, taken for a stop-gradient: the value is x**3, the gradient 1.
def stop_gradient_product(x):
    return x + (x**3 - x).detach()
