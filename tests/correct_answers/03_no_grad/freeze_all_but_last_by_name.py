# style: the last parameter's name says which layer is last: its prefix keeps training
def freeze_all_but_last(model):
    names = [name for name, _ in model.named_parameters()]
    last = names[-1].split(".")[0] + "."
    for name, p in model.named_parameters():
        p.requires_grad_(name.startswith(last))
