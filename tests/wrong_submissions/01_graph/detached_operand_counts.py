# expect: your prediction for `a + b.detach()` is wrong for a_requires=False, b_requires=True
# Applies "any input requires grad" to b too, as if b.detach() still required grad.
def predict_flags(a_requires, b_requires):
    either = a_requires or b_requires
    return {
        "a * b": (either, not either),
        "a.detach()": (False, True),
        "a.double()": (a_requires, not a_requires),
        "a + b.detach()": (either, not either),
        "nn.Parameter(b)": (True, True),
    }
