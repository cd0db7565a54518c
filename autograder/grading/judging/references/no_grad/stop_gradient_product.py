"""stop_gradient_product: the product's value and its gradient through the kept factor alone."""
import torch

from course.checks.technique import oracle_leaf


def _stop_gradient_product(x):
    def grad(f):
        x0 = oracle_leaf(x)
        return torch.autograd.grad(f(x0).sum(), x0)[0]

    return {"z": x.detach() ** 3,
            "dz_dx": grad(lambda t: t * (t**2).detach()),
            # the two wrong ways to place the stop, so the judge can name them
            "through_both": grad(lambda t: t * t**2),
            "through_square": grad(lambda t: t.detach() * t**2)}


def expected(inputs):
    return {**_stop_gradient_product(inputs["x"]), "same_shape": _stop_gradient_product(inputs["same_shape"]),
            "scalar": _stop_gradient_product(inputs["scalar"])}
