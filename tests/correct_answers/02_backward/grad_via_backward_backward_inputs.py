# style: backward(inputs=[leaf]), naming the tensor whose .grad is filled, on a copy made with new_tensor-free arithmetic
def grad_via_backward(f, x):
    leaf = (x * 1).detach().requires_grad_(True)
    out = f(leaf)
    out.backward(inputs=[leaf])
    return leaf.grad
