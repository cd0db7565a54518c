# expect: is a pair of strings
# The flags written as the words PyTorch prints, "True" and "False", not as bools.
def predict_flags(a_requires, b_requires):
    either = a_requires or b_requires
    pairs = {
        "a * b": (either, not either),
        "a.detach()": (False, True),
        "a.double()": (a_requires, not a_requires),
        "a + b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (True, True),
    }
    return {key: (str(r), str(leaf)) for key, (r, leaf) in pairs.items()}
