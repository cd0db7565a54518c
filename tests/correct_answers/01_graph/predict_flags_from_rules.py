# style: the two rules as small functions (a result requires grad if an input does; a leaf has no grad_fn), lists for pairs
def predict_flags(a_requires, b_requires):
    def result(*inputs_require):
        recorded = any(inputs_require)
        return [recorded, not recorded]

    def new_leaf(requires):
        return [requires, True]

    return {"a * b": result(a_requires, b_requires), "a.detach()": new_leaf(False),
            "a.double()": result(a_requires), "a + b.detach()": result(a_requires, False),
            "nn.Parameter(b)": new_leaf(True)}
