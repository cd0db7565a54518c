# expect: every .grad was None when this ran
# A reader's answer: calls clip_grad_value_ once instead of registering hooks.
def clip_with_hook(model, max_value):
    torch.nn.utils.clip_grad_value_(model.parameters(), max_value)
    return []
