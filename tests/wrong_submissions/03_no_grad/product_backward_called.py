# expect: your function called backward() itself
# A reader's answer: checks its own work by running backward() before returning z.
def stop_gradient_product(x):
    z = x * (x**2).detach()
    z.sum().backward()
    return z
