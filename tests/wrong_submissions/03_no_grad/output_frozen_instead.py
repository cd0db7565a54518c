# expect: the other way round from what was asked. model[-1] (here model[
# The opposite of what is asked: the output layer frozen, the rest left training.
def freeze_all_but_output(model):
    model[-1].requires_grad_(False)
