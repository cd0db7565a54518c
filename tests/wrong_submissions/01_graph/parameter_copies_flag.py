# expect: your predictions for `nn.Parameter(b)` are wrong
# Thinks nn.Parameter keeps the requires_grad flag of the tensor it wraps.
def predict_flags(a_requires, b_requires):
    either = a_requires or b_requires
    return {
        "a * b": (either, not either),
        "a.detach()": (False, True),
        "a.double()": (a_requires, not a_requires),
        "a + b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (b_requires, True),
    }
