# expect: freezing changes flags, never values
# Re-initialising the head is a fine-tuning habit, but this exercise asks to freeze, not to reset.
def freeze_all_but_last(model):
    model.requires_grad_(False)
    last = [layer for layer in model if list(layer.parameters())][-1]
    last.reset_parameters()
    last.requires_grad_(True)
