# style: a loop over the parameters, the output layer's own parameters compared by identity
def freeze_all_but_output(model):
    keep = list(model[-1].parameters())
    for p in model.parameters():
        p.requires_grad_(any(p is q for q in keep))
