# expect: evaluates f at shifted points x ± h
# A reader's answer: a central difference with h = 1e-4, which the text rules out.
import torch


def hand_derivative(x):
    f = lambda t: torch.sin(t**2) * torch.exp(-t)
    h = 1e-4
    return (f(x + h) - f(x - h)) / (2 * h)
