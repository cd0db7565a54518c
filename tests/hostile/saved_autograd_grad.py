from . import submission

NAME = "saved_autograd_grad"
WHY = ("technique check bypassed: torch.autograd.grad kept under another name before the check forbids it, "
       "and a throwaway backward() so that one is seen to run; the same call made directly in vjp is caught")
KIND = "cheat"
EXPECT = {"loses": ["vjp"], "reason": "don't call torch.autograd.grad", "cell": "test_vjp"}

BYPASS = '''
_grad = torch.autograd.grad   # the check replaces torch.autograd.grad, not this name

def grad_via_backward(f, x):
    torch.ones(1, requires_grad=True).sum().backward()   # the check counts backward() calls
    x = x.detach().clone().requires_grad_(True)
    return _grad(f(x), x)[0]
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=BYPASS, vjp=(
        "def vjp(f, x, v):\n    x = x.detach().clone().requires_grad_(True)\n"
        "    return torch.autograd.grad(f(x), x, grad_outputs=v)[0]"))
