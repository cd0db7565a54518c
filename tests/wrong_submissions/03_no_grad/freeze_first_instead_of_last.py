# expect: the other way round from what was asked
# Keeps the first Linear trainable and freezes the last one, the opposite of the exercise.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    model[0].requires_grad_(True)
