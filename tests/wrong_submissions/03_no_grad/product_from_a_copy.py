# expect: does not depend on the x you were given
# A fresh leaf made from x's values: its gradient never reaches the caller's x.
def stop_gradient_product(x):
    x = x.detach().clone().requires_grad_(True)
    return x * (x**2).detach()
