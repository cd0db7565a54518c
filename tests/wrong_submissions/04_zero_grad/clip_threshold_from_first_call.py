# expect: kept from an earlier call
# The threshold of the first call kept in a global: later calls clip at the wrong value.
_threshold = []


def clip_with_hook(model, max_value):
    if not _threshold:
        _threshold.append(max_value)
    return [p.register_hook(lambda g: g.clamp(-_threshold[0], _threshold[0])) for p in model.parameters()]
