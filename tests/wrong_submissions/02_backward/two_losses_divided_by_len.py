# expect: divided by len(x) = 
# expect: has no len() and no rows
# A reader's answer: the mean written as a sum over len(x): right for x of one dimension, wrong for x of two,
# where len(x) is the number of rows.
def two_losses(x):
    xc = x.detach().clone().requires_grad_(True)
    h = torch.sin(xc) * xc
    h.sum().backward(retain_graph=True)
    g1 = xc.grad.clone()
    xc.grad = None
    ((h**2).sum() / len(x)).backward()
    return g1, xc.grad
