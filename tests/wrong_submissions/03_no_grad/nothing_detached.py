# expect: nothing was detached
def stop_gradient_product(x):
    return x * x**2
