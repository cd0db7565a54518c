# style: the value x**3 as a constant, plus a correction that is 0 in value and has gradient x**2
def stop_gradient_product(x):
    c = x.detach()
    return c**3 + (x - c) * c**2
