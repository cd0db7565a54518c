# expect: You detached the wrong factor
def stop_gradient_product(x):
    return x.detach() * x**2
