# expect: z should equal x * x**2 = x**3 in value
# The detached factor is x, not x**2: z is x**2.
def stop_gradient_product(x):
    return x * x.detach()
