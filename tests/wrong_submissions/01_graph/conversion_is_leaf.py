# expect: your predictions for `a.double()` are wrong
# Treats .double() as a new tensor rather than an operation: always a leaf.
def predict_flags(a_requires, b_requires):
    either = a_requires or b_requires
    return {
        "a * b": (either, not either),
        "a.detach()": (False, True),
        "a.double()": (a_requires, True),
        "a + b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (True, True),
    }
