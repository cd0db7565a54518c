# expect: returned the first call's output
# expect: handed back an old result
# A reader's answer: outputs cached by the model's id and the input's shape, so the same model
# called again with another x of that shape gets the old output (the same tensor object, which the
# check may see first).
_cache = {}


def evaluate(model, x):
    key = (id(model), tuple(x.shape))
    if key not in _cache:
        was_training = model.training
        model.eval()
        with torch.no_grad():
            _cache[key] = model(x)
        model.train(was_training)
    return _cache[key]
