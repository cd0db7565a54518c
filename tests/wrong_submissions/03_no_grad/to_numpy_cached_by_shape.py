# expect: kept from an earlier call
# A reader's answer: arrays cached by shape and dtype, so another tensor of that shape and dtype
# gets the first one's values.
_cache = {}


def to_numpy(t):
    key = (tuple(t.shape), t.dtype)
    if key not in _cache:
        _cache[key] = t.detach().clone().numpy()
    return _cache[key]
