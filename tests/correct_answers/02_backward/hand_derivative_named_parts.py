# style: the product rule with each part named (u, du, w, dw), written with tensor methods
def hand_derivative(x):
    u, du = (x * x).sin(), 2 * x * (x * x).cos()
    w = (-x).exp()
    dw = -w
    return du * w + u * dw
