# expect: an elementwise product keeps x's shape
# Flattens x first, so z is 1-D whatever shape x had.
def stop_gradient_product(x):
    flat = x.reshape(-1)
    return flat * (flat**2).detach()
