# expect: each saved row shares its memory with .grad
# x.grad is one tensor that backward() updates in place: every saved row is the same object.
def grad_history(f, x, k):
    x = x.detach().clone().requires_grad_(True)
    saved = []
    for _ in range(k):
        f(x).backward()
        saved.append(x.grad)
    return torch.stack(saved)
