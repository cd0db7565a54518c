# style: each entry worked out with an if, one at a time
def predict_flags(a_requires, b_requires):
    if a_requires or b_requires:
        product = (True, False)
    else:
        product = (False, True)
    converted = (True, False) if a_requires else (False, True)
    return {"a * b": product, "a.detach()": (False, True), "a.double()": converted,
            "a + b.detach()": converted, "nn.Parameter(b)": (True, True)}
