# expect: It looks reduced to one number
# Sums z to a scalar, as a loss would be, though the exercise asks for z elementwise.
def stop_gradient_product(x):
    return (x * (x**2).detach()).sum()
