# %% [markdown]
# # Lesson 2: `backward()` and gradients
#
# In lesson 1 you saw that PyTorch records a graph while it computes. This lesson is about the
# other half: walking that graph backwards to get gradients.
#
# **You will learn** how `backward()` fills `.grad`, why it starts from a scalar, what
# `gradient=` means, why a second walk through a graph usually fails (unless you say otherwise),
# how to see the gradient of an intermediate result, and when to use `torch.autograd.grad`
# instead.
#
# **Time:** about 45 minutes. **Exercises:** six autograded, one written answer.
#
# **How the exercises work.** Each exercise is a function for you to complete. Run the cell
# below it to check your answer: it says *correct*, *not attempted*, or what is wrong in autograd
# terms. Stuck? `check.NAME.hint()` gives a nudge; call it again for a bigger one. When you
# submit, the grader runs the same checks on fresh random inputs, so a number copied from an
# output here will not pass. If it reports a seed, `check.NAME(your_function, seed=...)` replays
# that exact case.

# %%
import torch

from course.visuals.draw_graph import draw_graph
from course.exercises import backward as check
from course.visuals.pitfall import shows_error, shows_warning
from course.visuals.quick_check import quick_check
from course.visuals.slope_explorer import slope_explorer

# %% [markdown]
# ## 1. The forward pass builds the graph, `backward()` walks it
#
# When a tensor has `requires_grad=True`, every operation on it is recorded. `backward()` walks
# the recorded operations from the output back to the inputs, applying the chain rule at each
# step. The result lands in the `.grad` of each *leaf*: a tensor you created yourself.
#
# Take $y = x^2$ at $x = 3$. The derivative is $2x = 6$.

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x**2
y.backward()
x.grad

# %% [markdown]
# With two inputs, each leaf gets its own partial derivative. For $L = ab + b^2$ at $a = 2$,
# $b = 4$: $\partial L / \partial a = b = 4$ and $\partial L / \partial b = a + 2b = 10$.

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
L = a * b + b**2
L.backward()
print("a.grad =", a.grad)
print("b.grad =", b.grad)

# %% [markdown]
# Here is the graph that `backward()` walked, drawn from the output down to the leaves. Each
# operation node is the backward function autograd recorded; after `backward()`, each leaf
# shows the gradient that landed in its `.grad`. Note that `b` feeds two operations: its
# gradient is the sum of what arrives along both paths.

# %%
draw_graph(L, names={"a": a, "b": b, "L": L}, title="L = a*b + b**2 after L.backward()")

# %% [markdown]
# A gradient is a slope. Move the slider: the tangent touches $f(x) = \sin(x)\,x$ at the
# point you choose, and its slope is exactly what `backward()` puts in `x.grad` there.

# %%
slope_explorer(lambda t: torch.sin(t) * t, -4.0, 4.0, at=1.0)

# %% [markdown]
# The same holds for tensors of any shape: `.grad` has the shape of its leaf. For
# $L = \sum_i w_i x_i$ the gradient with respect to $w$ is $x$ itself.

# %%
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
inputs = torch.tensor([1.0, 2.0, 3.0])
(w * inputs).sum().backward()
print("w.grad =", w.grad)
print("equal to the inputs:", torch.equal(w.grad, inputs))

# %% [markdown]
# ### Exercise 1: a gradient with `backward()`
#
# Complete `grad_via_backward(f, x)`: it gets a function `f` that returns a scalar and a tensor
# `x` (which does *not* require grad), and returns $\partial f / \partial x$ at `x`, found with
# `backward()`. Do not change `x` itself: work on a copy.

# %% solution grad_via_backward
def grad_via_backward(f, x):
    """The gradient of the scalar f(x) with respect to x, via backward()."""
    ### BEGIN SOLUTION
    x = x.detach().clone().requires_grad_(True)
    f(x).backward()
    return x.grad
    ### END SOLUTION

# %% check grad_via_backward points=1

# %% [markdown]
# ## 2. `backward()` starts from a scalar
#
# A gradient answers "how does *one number* change when each input moves?". Called without
# arguments, `backward()` assumes its output is that one number. On an output with more than one
# element it stops, and this is PyTorch's own message:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
with shows_error(RuntimeError):
    y.backward()

# %%
quick_check(
    "y = x * 2 for a tensor x of shape (3,) with requires_grad=True. Which call works?",
    ["y.backward()", "y.sum().backward()", "y[0].grad", "x.backward()"],
    1,
    "y.sum() is a scalar, so backward() can start from it; it computes the gradient of the sum, "
    "which here puts 2 in every entry of x.grad.",
)

# %% [markdown]
# ## 3. `gradient=`: a vector-Jacobian product
#
# For a vector output $y = f(x)$, the full derivative is the Jacobian $J$, with one row per
# output and one column per input, $J_{ij} = \partial y_i / \partial x_j$.
# `y.backward(gradient=v)` does not build $J$: it computes $v^\top J$ directly, which is what
# the chain rule needs when $y$ feeds into a later scalar $L$ with $\partial L / \partial y = v$.
# Reducing with `.sum()` first is the special case $v = (1, \dots, 1)$.

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x**2                     # J is diagonal with entries 2x
v = torch.tensor([1.0, 0.1, 0.01])
y.backward(gradient=v)
print("v^T J =", x.grad)     # [2*1*1, 2*2*0.1, 2*3*0.01]

# %% [markdown]
# ### Exercise 2: a vector-Jacobian product
#
# Complete `vjp(f, x, v)`: `f` maps a vector to a vector, `v` has the shape of `f(x)`. Return
# $v^\top J$ at `x`, using `backward(gradient=...)`. `x` does not require grad; do not change `x`
# or `v`: work on a copy.

# %% solution vjp
def vjp(f, x, v):
    """v^T J for the Jacobian J of f at x, via backward(gradient=v)."""
    ### BEGIN SOLUTION
    x = x.detach().clone().requires_grad_(True)
    f(x).backward(gradient=v)
    return x.grad
    ### END SOLUTION

# %% check vjp points=2

# %% [markdown]
# ## 4. Only leaves keep `.grad`
#
# Intermediate results (tensors with a `grad_fn`) take part in backward, but autograd does not
# keep their gradients: that would cost memory on every layer of a network. Reading `.grad` of a
# non-leaf gives `None`, and PyTorch warns you:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 3                    # not a leaf: h.grad_fn is set
h.sum().backward()
with shows_warning():
    print("h.grad is", h.grad)

# %% [markdown]
# To keep an intermediate gradient, call `retain_grad()` on it *before* `backward()`:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 3
h.retain_grad()
(h**2).sum().backward()
print("h.grad =", h.grad)    # d(sum h^2)/dh = 2h
print("x.grad =", x.grad)    # chain rule: 2h * 3

# %% [markdown]
# ### Exercise 3: the gradient of an intermediate
#
# For $h = \tanh(x)$ and $y = \sum_i h_i^2\,x_i$, complete `grads_with_intermediate(x)` so that
# it returns the pair `(dy_dx, dy_dh)`, both from one call to `backward()`.
#
# `x` does not require grad and must not change: work on a copy. Return two tensors shaped like
# `x`, with `dy_dh` as `h.grad` gives it.

# %% solution grads_with_intermediate
def grads_with_intermediate(x):
    """(dy/dx, dy/dh) for h = tanh(x), y = sum(h**2 * x)."""
    ### BEGIN SOLUTION
    x = x.detach().clone().requires_grad_(True)
    h = torch.tanh(x)
    h.retain_grad()
    (h**2 * x).sum().backward()
    return x.grad, h.grad
    ### END SOLUTION

# %% check grads_with_intermediate points=2

# %% [markdown]
# ## 5. The graph is freed after `backward()`
#
# To save memory, `backward()` frees the values the graph saved for the backward pass. A second
# walk fails as soon as a node needs a value that was freed (most do):

# %%
x = torch.tensor(2.0, requires_grad=True)
y = torch.sin(x) * x
y.backward()
with shows_error(RuntimeError):
    y.backward()

# %% [markdown]
# Pass `retain_graph=True` to every call but the last. And remember that gradients **add up**
# in `.grad`: the second call below adds to what the first left there.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
y.backward(retain_graph=True)
print("after one backward: ", x.grad)    # 3x^2 = 12
y.backward()
print("after two backwards:", x.grad)    # 12 + 12

# %%
quick_check(
    "You call loss.backward(retain_graph=True) and then loss.backward() again on the same graph. "
    "What does x.grad hold?",
    ["the gradient once", "twice the gradient", "None", "an error is raised"],
    1,
    "retain_graph=True keeps the graph so the second call works, and backward() adds into .grad: "
    "two calls, twice the gradient.",
)

# %% [markdown]
# ### Exercise 4: two losses on one graph
#
# For $h = \sin(x) \cdot x$, `loss1 = h.sum()` and `loss2 = (h**2).mean()`, complete
# `two_losses(x)` to return the pair (gradient of `loss1`, gradient of `loss2`) with respect to
# `x`, computing `h` only once. `x` does not require grad; do not change `x`: work on a copy.

# %% solution two_losses
def two_losses(x):
    """(d loss1/dx, d loss2/dx) from one forward pass."""
    ### BEGIN SOLUTION
    x = x.detach().clone().requires_grad_(True)
    h = torch.sin(x) * x
    h.sum().backward(retain_graph=True)
    first = x.grad.clone()
    x.grad = None
    (h**2).mean().backward()
    return first, x.grad
    ### END SOLUTION

# %% check two_losses points=2

# %% [markdown]
# ## 6. `torch.autograd.grad`: gradients without `.grad`
#
# `backward()` writes into `.grad` of every leaf, adding to what is there. `torch.autograd.grad`
# instead *returns* the gradients of the inputs you name, and touches no leaf's `.grad`. It
# takes `grad_outputs=` where `backward()` takes `gradient=`.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x**2).sum()
(dx,) = torch.autograd.grad(y, x)
print("returned:", dx)
print("x.grad:  ", x.grad)

# %% [markdown]
# ### Exercise 5: a Jacobian row by row
#
# Each row of the Jacobian of $f: \mathbb{R}^n \to \mathbb{R}^m$ is the gradient of one output.
# Complete `jacobian_rows(f, x)` to return the $m \times n$ Jacobian at `x`, one `backward()` (or
# `torch.autograd.grad`) call per row. PyTorch's `jacobian()` is off limits here. `x` does not
# require grad; do not change `x`: work on a copy.

# %% solution jacobian_rows
def jacobian_rows(f, x):
    """The Jacobian of f at x, built one output at a time."""
    ### BEGIN SOLUTION
    x = x.detach().clone().requires_grad_(True)
    y = f(x)
    rows = []
    for i in range(y.numel()):
        x.grad = None
        y[i].backward(retain_graph=True)
        rows.append(x.grad.clone())
    return torch.stack(rows)
    ### END SOLUTION

# %% check jacobian_rows points=2

# %% [markdown]
# ### Exercise 6: the chain rule by hand
#
# Autograd applies the chain rule for you; doing it once by hand shows what it computes. For
# $f(x) = \sin(x^2)\, e^{-x}$ (elementwise), complete `hand_derivative(x)` to return $f'(x)$
# using only ordinary tensor operations, no autograd. The grader compares it with finite
# differences (`gradcheck`) and with autograd.

# %% solution hand_derivative
def hand_derivative(x):
    """f'(x) for f(x) = sin(x**2) * exp(-x), derived by hand."""
    ### BEGIN SOLUTION
    return torch.cos(x**2) * 2 * x * torch.exp(-x) - torch.sin(x**2) * torch.exp(-x)
    ### END SOLUTION

# %% check hand_derivative points=2

# %% [markdown]
# ## Written answer
#
# **Why does `backward()` without arguments only work on a scalar output?** Explain in two or
# three sentences what it would have to compute for a vector output, and how `gradient=` solves
# it.

# %% [markdown] answer why_scalar points=2
# A gradient is the derivative of one number with respect to many inputs. For a vector output
# the full derivative is a Jacobian matrix, which backward never builds; it needs a vector v to
# form v^T J, the quantity the chain rule actually uses. For a scalar, v = 1 is the only
# sensible choice, so PyTorch fills it in; for a vector it asks you, through gradient=v.

# %% [markdown]
# ## Summary
#
# - `backward()` walks the graph from a scalar and **adds** gradients into `.grad` of leaves.
# - `gradient=v` gives a vector-Jacobian product $v^\top J$ for a non-scalar output.
# - The graph is freed after `backward()`; `retain_graph=True` keeps it for another call.
# - Non-leaf tensors keep no `.grad` unless you call `retain_grad()` first.
# - `torch.autograd.grad` returns gradients instead of accumulating them.
#
# Next, lesson 3: turning autograd off.
