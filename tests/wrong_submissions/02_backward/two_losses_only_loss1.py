# expect: backward() ran only once
# Only loss1 is differentiated, its gradient returned for both: not the sum of the two losses, so the
# message must not say "loss1 + loss2".
def two_losses(x):
    x = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    h.sum().backward()
    return x.grad.clone(), x.grad
