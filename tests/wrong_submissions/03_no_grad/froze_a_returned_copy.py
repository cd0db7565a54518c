# expect: your function returned another model, and the model it was given is unchanged
# A reader's answer: froze a deep copy and returned it, the caller's model unchanged.
import copy
def freeze_all_but_output(model):
    model = copy.deepcopy(model)
    for layer in model[:-1]:
        layer.requires_grad_(False)
    return model
