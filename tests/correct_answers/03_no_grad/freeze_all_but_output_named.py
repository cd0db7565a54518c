# style: named_parameters(), the output layer's parameters picked by their name's prefix
def freeze_all_but_output(model):
    last = f"{len(model) - 1}."
    for name, p in model.named_parameters():
        p.requires_grad = name.startswith(last)
