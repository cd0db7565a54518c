# expect: your predictions for `a.detach()` are wrong
# Thinks detach() only drops the history and keeps a's requires_grad.
def predict_flags(a_requires, b_requires):
    either = a_requires or b_requires
    return {
        "a * b": (either, not either),
        "a.detach()": (a_requires, True),
        "a.double()": (a_requires, not a_requires),
        "a + b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (True, True),
    }
