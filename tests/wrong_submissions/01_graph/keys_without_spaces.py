# expect: return a dict with exactly the keys
# Right flags, but the expressions are written without the spaces the exercise uses.
def predict_flags(a_requires, b_requires):
    either = a_requires or b_requires
    return {
        "a*b": (either, not either),
        "a.detach()": (False, True),
        "a.double()": (a_requires, not a_requires),
        "a+b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (True, True),
    }
