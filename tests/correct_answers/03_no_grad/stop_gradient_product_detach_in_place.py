# style: detach_() on the new tensor x**2 (not on x), then the product
def stop_gradient_product(x):
    square = x**2
    square.detach_()
    return x * square
