# expect: handed back an old result
# A reader's answer: a cache keyed on x.shape. It hands back the Jacobian of whichever f and x came
# first with that shape, even for another function or other values.
import torch

_cache = {}


def jacobian_rows(f, x):
    if x.shape not in _cache:
        x = x.detach().clone().requires_grad_(True)
        y = f(x)
        rows = []
        for i in range(y.numel()):
            x.grad = None
            y[i].backward(retain_graph=True)
            rows.append(x.grad.clone())
        _cache[x.shape] = torch.stack(rows)
    return _cache[x.shape]
