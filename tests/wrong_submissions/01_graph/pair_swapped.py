# expect: each of your pairs is in the wrong order
# Right flags, but every pair is (is_leaf, requires_grad) instead of (requires_grad, is_leaf).
def predict_flags(a_requires, b_requires):
    either = a_requires or b_requires
    return {
        "a * b": (not either, either),
        "a.detach()": (True, False),
        "a.double()": (not a_requires, a_requires),
        "a + b.detach()": (not a_requires, a_requires),
        "nn.Parameter(b)": (True, True),
    }
