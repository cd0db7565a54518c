"""Expected values for lesson 3, computed with real PyTorch on the grader's own copies of the inputs."""
import torch

from course.checks.technique import oracle_leaf
from course.exercises.no_grad import _layer_names


def evaluate(inputs):
    outputs = []
    for case in inputs["cases"]:
        model, training = case["model"], case["model"].training  # a model may come twice: restore its mode
        with torch.no_grad():
            outputs.append(model.eval()(case["x"]))
        model.train(training)
    return {"outputs": outputs}


def _stop_gradient_product(x):
    def grad(f):
        x0 = oracle_leaf(x)
        return torch.autograd.grad(f(x0).sum(), x0)[0]

    return {"z": x.detach() ** 3,
            "dz_dx": grad(lambda t: t * (t**2).detach()),
            # the two wrong ways to place the stop, so the judge can name them
            "through_both": grad(lambda t: t * t**2),
            "through_square": grad(lambda t: t.detach() * t**2)}


def stop_gradient_product(inputs):
    return {**_stop_gradient_product(inputs["x"]), "same_shape": _stop_gradient_product(inputs["same_shape"])}


def to_numpy(inputs):
    return {"arrays": [t.detach().clone().numpy() for t in inputs["tensors"]]}


def sgd_step(inputs):
    params = inputs["params"]
    optimizer = torch.optim.SGD(params, lr=inputs["lr"])
    optimizer.step()   # skips parameters whose .grad is None
    after = [p.detach().clone() for p in params]
    for p, g in zip(params, inputs["next_grads"]):
        p.grad = g.clone()
    optimizer.step()   # plain SGD: no memory of the first step
    return {"after": after, "next_step": [p.detach().clone() for p in params]}


def _fix_inplace(x, v):
    x0 = oracle_leaf(x)
    y = torch.tanh(x0 * 2 + 1) * 3      # tanh's saved output is never touched again
    y[:, 0] = 0                         # in place, but on a tensor no backward step saved
    (dy_dx,) = torch.autograd.grad(y, x0, v)
    return {"y": y.detach(), "dy_dx": dy_dx}


def fix_inplace(inputs):
    return {"cases": [_fix_inplace(case["x"], case["v"]) for case in inputs["cases"]]}


def freeze_all_but_last(inputs):
    trainable, last = [], []
    for case in inputs["cases"]:
        model = case["model"]
        index = max(i for i, layer in enumerate(model) if list(layer.parameters()))
        model.requires_grad_(False)
        model[index].requires_grad_(True)
        trainable.append(sorted(n for n, p in _layer_names(model).items() if p.requires_grad))
        last.append(index)
    return {"trainable": trainable, "last": last}


# The core's models end in a Linear, so the last layer with parameters is model[-1]: the same expectation.
freeze_all_but_output = freeze_all_but_last
