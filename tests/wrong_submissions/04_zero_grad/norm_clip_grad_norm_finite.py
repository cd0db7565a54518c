# expect: With a finite max_norm it would also rescale every .grad in place
# Lets clip_grad_norm_ compute the norm with a finite max_norm, which would also rescale the gradients.
def grad_norm(model):
    return float(nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0))
