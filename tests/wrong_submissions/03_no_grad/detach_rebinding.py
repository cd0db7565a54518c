# expect: only binds the name p to a detached copy
# detach() returns a new tensor; the model's parameters keep requiring grad.
def freeze_all_but_last(model):
    for layer in list(model)[:-1]:
        for p in layer.parameters():
            p = p.detach()
