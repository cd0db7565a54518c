# expect: autograd is still switched off after `freeze_all_but_output` returned
# Switches recording off "to be safe" and never back on.
def freeze_all_but_output(model):
    torch.set_grad_enabled(False)
    model[:-1].requires_grad_(False)
