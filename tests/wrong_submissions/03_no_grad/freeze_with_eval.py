# expect: switches how layers such as Dropout and batch norm compute, not gradients
# A reader's answer: eval() on every layer but the output one, taken for freezing.
def freeze_all_but_output(model):
    for layer in list(model)[:-1]:
        layer.eval()
