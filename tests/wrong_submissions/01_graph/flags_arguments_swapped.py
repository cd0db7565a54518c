# expect: your function takes its arguments in the other order
# Every rule right, but the parameters written b first: the call predict_flags(a_requires, b_requires)
# puts a's flag in b_requires.
def predict_flags(b_requires, a_requires):
    either = a_requires or b_requires
    return {
        "a * b": (either, not either),
        "a.detach()": (False, True),
        "a.double()": (a_requires, not a_requires),
        "a + b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (True, True),
    }
