# expect: With max_norm=inf it changes no .grad, but it still computes the norm for you
# Lets clip_grad_norm_ compute the norm (max_norm=inf rescales nothing): the exercise asks for it by hand.
def grad_norm(model):
    return nn.utils.clip_grad_norm_(model.parameters(), float("inf"))
