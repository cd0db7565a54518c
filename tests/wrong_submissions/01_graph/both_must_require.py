# expect: your predictions for `a * b` are wrong (the other four expressions are right)
# Thinks a product requires grad only when both factors do.
def predict_flags(a_requires, b_requires):
    both = a_requires and b_requires
    return {
        "a * b": (both, not both),
        "a.detach()": (False, True),
        "a.double()": (a_requires, not a_requires),
        "a + b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (True, True),
    }
