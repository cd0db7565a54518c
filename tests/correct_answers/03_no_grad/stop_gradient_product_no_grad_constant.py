# style: the constant factor made under no_grad() instead of with detach()
def stop_gradient_product(x):
    with torch.no_grad():
        square = x * x
    return x * square
