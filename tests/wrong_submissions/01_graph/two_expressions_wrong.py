# expect: once only one is wrong, the check names it
# A reader's answer: a.detach() keeps a's requires_grad, and a.double() is always a leaf: two expressions
# wrong, which the check cannot name without saying the answer.
def predict_flags(a_requires, b_requires):
    ab = a_requires or b_requires
    return {
        "a * b": (ab, not ab),
        "a.detach()": (a_requires, True),
        "a.double()": (a_requires, True),
        "a + b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (True, True),
    }
