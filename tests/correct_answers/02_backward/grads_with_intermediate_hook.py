# style: retain_grad() on the intermediate right after it is made, a tuple built at the end
def grads_with_intermediate(x):
    leaf = x.detach().clone()
    leaf.requires_grad = True
    h = leaf.tanh()
    h.retain_grad()
    y = (h.pow(2) * leaf).sum()
    y.backward()
    return (leaf.grad, h.grad)
