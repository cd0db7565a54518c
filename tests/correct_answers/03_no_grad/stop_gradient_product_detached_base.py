# style: x detached first, then squared: (x.detach())**2 is the same constant as (x**2).detach()
def stop_gradient_product(x):
    return x * x.detach() ** 2
