# style: sin and cos written with complex exponentials (Euler's formula), no torch.cos anywhere
def hand_derivative(x):
    z = torch.exp(1j * x**2)            # cos(x**2) + i sin(x**2)
    return (torch.exp(-x) * (2 * x * z.real - z.imag)).to(x.dtype)
