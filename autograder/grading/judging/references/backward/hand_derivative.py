"""hand_derivative: f'(x) of the function the lesson prints, and the slips a derivation by hand makes."""
import torch

from ..gradients import gradient


def hand_written_f(x: torch.Tensor) -> torch.Tensor:
    """The function whose derivative the student derives by hand (it is printed in the lesson)."""
    return torch.sin(x**2) * torch.exp(-x)


def expected(inputs):
    """f'(x), and what the likeliest slips by hand give instead, from the product's own parts
    (u = sin(x**2), v = exp(-x)): the inner factor 2x left out, the minus of exp(-x)' left out,
    and u' v' for the product rule."""
    x = inputs["x"]
    u, v = torch.sin(x.detach() ** 2), torch.exp(-x.detach())
    du, dv = gradient(lambda t: torch.sin(t**2).sum(), x), gradient(lambda t: torch.exp(-t).sum(), x)
    return {"derivative": gradient(lambda t: hand_written_f(t).sum(), inputs["x"]),
            "no_inner_factor": torch.cos(x.detach() ** 2) * v + u * dv,
            "exp_sign_dropped": du * v - u * dv,
            "derivatives_multiplied": du * dv}
