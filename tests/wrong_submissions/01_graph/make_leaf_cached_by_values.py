# expect: returned the very tensor object it had returned on an earlier call
# A cache keyed on the values: the same data gives back the same leaf, so what one caller does to it
# (a backward() that fills its .grad) the next one finds.
_made = {}


def make_leaf(data):
    t = torch.as_tensor(data).detach()
    key = (str(t.dtype), tuple(t.shape), tuple(t.reshape(-1).tolist()))
    if key not in _made:
        _made[key] = t.to(torch.float64, copy=True).requires_grad_(True)
    return _made[key]
