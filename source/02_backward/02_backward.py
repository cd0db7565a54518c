# %% [markdown]
# # Lesson 2: `backward()` and gradients
#
# Lesson 1 recorded a graph; this lesson walks it backwards to get gradients.
#
# **The core** (sections 1 to 4, two exercises): `backward()` fills `.grad` of every leaf, starts
# from a scalar, only leaves keep `.grad`, and the graph is freed unless you pass
# `retain_graph=True`. **Going further** (sections 5 to 11) is optional on a first pass; its
# exercises are graded like the core's and count toward the lesson's points when you do them.
#
# **Time:** the core about 25 minutes (about 17 if both exercises pass at the first try), the
# whole lesson about 95.
#
# **Exercises.** Complete the function and run the cell below it: it says *correct*, *not
# attempted*, or what is wrong in autograd terms; `check.NAME.hint()` gives a nudge (call it
# again for more). The grader runs the same checks on new random inputs. An autograd error in
# your own cell gets a line of explanation.

# %%
import torch

from course.visuals.backward_steps import backward_steps
from course.visuals.draw_graph import draw_graph
from course.visuals.expression_graph import expression_graph
from course.exercises import backward as check
from course.visuals.pitfall import shows_error, shows_warning
from course.questions.backward import ask
from course.visuals.slope_explorer import slope_explorer

# %% [markdown]
# # The core
#
# ## 1. `backward()` fills `.grad` of every leaf
#
# `backward()` walks the recorded graph from the output back to the inputs, applying the chain
# rule at each step, and puts the result in the `.grad` of each *leaf* that requires grad (a
# tensor you made with `requires_grad=True`); until a `backward()` reaches it, `.grad` is `None`.
# The smallest case: $y = x^2$ at $x = 3$, whose derivative is $2x = 6$:

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x ** 2
y.backward()
print(x.grad)

# %% [markdown]
# With two leaves, each gets its own partial derivative. For $L = ab + b^2$ at $a = 2$, $b = 4$:
# $\partial L / \partial a = b = 4$ and $\partial L / \partial b = a + 2b = 10$.

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
L = a * b + b**2
L.backward()
print("a.grad =", a.grad, "| b.grad =", b.grad)

# %% [markdown]
# The exercises give you an `x` that does *not* require grad, to be left as it was. Work on a
# copy: `x.detach().clone()` copies the values without history, and `.requires_grad_(True)`
# turns recording on for the copy only (lesson 1, section 9, does it for any data):

# %%
x = torch.tensor([1.0, 2.0])          # given to you: it does not require grad
xc = x.detach().clone().requires_grad_(True)
print("xc: requires_grad =", xc.requires_grad, "| is_leaf =", xc.is_leaf)
print("x:  requires_grad =", x.requires_grad, "(unchanged)")

# %% [markdown]
# ### Exercise: a gradient with `backward()`
#
# Complete `grad_via_backward(f, x)`: `f` returns a scalar, and `x` does *not* require grad.
# Return $\partial f / \partial x$ at `x`, found with `backward()`, without changing `x`.

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
# A gradient says how *one number* changes as each input moves. Without arguments, `backward()`
# needs its output to be that number; on a larger output it stops:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
with shows_error(RuntimeError):
    y.backward()

# %% [markdown]
# Reduce the output to one number first (`.sum()`, say), or pass `gradient=v`, a tensor of the
# output's shape: `y.backward(gradient=v)` gives the gradient of $\sum_i v_i y_i$ (`.sum()` is
# `v` all ones).

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = torch.tensor([1.0, 0.1, 0.01])
(x**2).backward(gradient=v)
print("x.grad =", x.grad)     # 2x weighted by v: [2*1*1, 2*2*0.1, 2*3*0.01]

# %%
ask("which_backward_call")

# %% [markdown]
# ## 3. Only leaves keep `.grad`
#
# Intermediate results (tensors with a `grad_fn`) take part in backward, but autograd does not
# keep their gradients, to save memory: `.grad` of a non-leaf is `None`, with a warning
# (section 8 shows how to keep one):

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 3                    # not a leaf: h.grad_fn is set
h.sum().backward()
with shows_warning():
    print("h.grad is", h.grad)
print("x.grad is", x.grad)

# %% [markdown]
# ## 4. The graph is freed after `backward()`
#
# To save memory, `backward()` frees what the graph saved for the backward pass: a second
# `backward()` through the same graph fails (section 6 shows when it does not).

# %%
x = torch.tensor(2.0, requires_grad=True)
y = torch.sin(x) * x
y.backward()
with shows_error(RuntimeError):
    y.backward()

# %% [markdown]
# Pass `retain_graph=True` to every call but the last. Gradients **add up** in `.grad`, in
# place: after `g1 = x.grad`, the next `backward()` changes `g1` too (it is the same tensor),
# while `x.grad.clone()` keeps the value. `x.grad = None` resets it.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**3
y.backward(retain_graph=True)            # x.grad = 3x^2 = 12
g1 = x.grad                              # the .grad tensor itself
kept = x.grad.clone()                    # a copy of its value now
y.backward()                             # the last call: the graph is freed now
print("x.grad:", x.grad, "| g1:", g1, "| kept:", kept)   # 12 + 12, and g1 with it
x.grad = None
(x**3).backward()                        # a new graph, from an empty .grad
print("after a reset:", x.grad)          # 12 again

# %% [markdown]
# ### Exercise: two losses on one graph
#
# For $h = \sin(x) \cdot x$, `loss1 = h.sum()` and `loss2 = (h**2).mean()`, complete
# `two_losses(x)` to return the pair (gradient of `loss1`, gradient of `loss2`) with respect to
# `x`. Four rules:
#
# - compute `h` only once: one forward pass, differentiated from each loss;
# - return two separate tensors: the second `backward()` must not change the first gradient;
# - what `.grad` holds after the first `backward()` must not leak into the second;
# - leave `x` unchanged: work on a copy.

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
# **That is the core.** What follows is optional; *Where am I*, at the bottom, shows your
# progress.

# %% [markdown]
# # Going further (optional)
#
# ## 5. Explore: graphs, backward() step by step, slopes
#
# Here is section 1's graph, drawn from the output down to the leaves; after `backward()`, each
# leaf shows the gradient that landed in its `.grad`. `b` feeds two operations: its gradient is
# the sum of what arrives along both paths.

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
L = a * b + b**2
L.backward()
draw_graph(L, names={"a": a, "b": b, "L": L}, title="L = a*b + b**2 after L.backward()")

# %% [markdown]
# Now type a function of `x` and `y` in the box and press Enter (you can use `+ - * / **` and
# `sin`, `cos`, `exp`, `log`, `sqrt`, `tanh`, ...). You see the graph autograd records for it,
# and `x.grad`, `y.grad` after `backward()`. Try `x * x` (one leaf used twice: a single arrow,
# marked ×2), or `x + 1` (what does `y.grad` say when `f` does not use `y`?).

# %%
expression_graph("x * y + sin(x)", x=1.0, y=2.0)

# %% [markdown]
# Section 1's graph again, and this time `backward()` is run one node at a time. Move the
# slider (or press *next*): at each step, one node receives the gradient of `L` with respect to
# its output and sends a share along each of its arrows; the numbers on the arrows are what
# PyTorch really passed. Watch `b`: two arrows arrive there, and autograd adds them before the
# total lands in `b.grad`.

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
L = a * b + b**2
backward_steps(L, names={"a": a, "b": b, "L": L}, title="L = a*b + b**2")   # runs L.backward()

# %% [markdown]
# The same holds for a leaf of any shape, and `.grad` has that shape. For $L = \sum_i w_i x_i$
# the gradient with respect to $w$ is $x$ itself:

# %%
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
inputs = torch.tensor([1.0, 2.0, 3.0])
(w * inputs).sum().backward()
print("w.grad =", w.grad)
print("equal to the inputs:", torch.equal(w.grad, inputs))

# %% [markdown]
# A gradient is a slope. Move the slider: the tangent touches $f(x) = \sin(x)\,x$ at the point
# you choose, and its slope is the derivative autograd computes there: the number `x.grad` would
# hold after `f(x).backward()` at that point.

# %%
slope_explorer(lambda t: torch.sin(t) * t, -4.0, 4.0, at=1.0)

# %% [markdown]
# ## 6. A trap: a graph with nothing saved can be walked twice
#
# Section 4's second `backward()` failed because a node needed a value that was freed. Not every
# node needs one: addition passes the gradient on unchanged, so a graph made only of additions
# and sums has nothing to free, and a second `backward()` *without* `retain_graph=True` does not
# fail. It silently adds the gradient again:

# %%
x = torch.tensor([2.0, 1.0], requires_grad=True)
y = (x + x).sum()            # AddBackward and SumBackward save no tensors
y.backward()
print("after one backward: ", x.grad)
y.backward()                 # no error...
print("after two backwards:", x.grad)    # ...and .grad doubled

# %% [markdown]
# So "it did not raise" does not mean "it computed once": reset `.grad` whenever you reuse a
# leaf, and do not count on the error to catch a repeated `backward()`.

# %%
ask("backward_twice")

# %% [markdown]
# ## 7. `gradient=` is a vector-Jacobian product
#
# Some linear algebra first. A function $y = f(x)$ from $n$ inputs to $m$ outputs has one
# partial derivative per pair (output $i$, input $j$). Arranged in a table with one row per
# output and one column per input, they form the **Jacobian** $J$, an $m \times n$ matrix:
# $J_{ij} = \partial y_i / \partial x_j$. Row $i$ is the gradient of the one output $y_i$.
#
# A row vector $v^\top$ of $m$ numbers times $J$ is a row of $n$ numbers,
# $(v^\top J)_j = \sum_i v_i J_{ij}$: a weighted sum of $J$'s rows. That is what section 2's
# `gradient=v` computed: the gradient of $\sum_i v_i y_i$ is $\sum_i v_i \nabla y_i = v^\top J$.
#
# Why this product? When $y$ feeds a later scalar $L$, the chain rule says
# $\partial L / \partial x_j = \sum_i (\partial L / \partial y_i)\, J_{ij}$: $v^\top J$ with
# $v = \partial L / \partial y$. So `backward()` never needs $J$ itself, only its product with the
# gradient arriving from above, which is what it passes from node to node.
#
# For $y = x^2$ elementwise, $J$ is diagonal (each $y_i$ depends on $x_i$ only) with entries
# $2x_i$, so $v^\top J = (2 x_i v_i)_i$, the numbers of section 2. Here is a case with $J$ in
# full: for $x \in \mathbb{R}^3$ and $y = (x_0 x_1,\; x_1 + x_2^2) \in \mathbb{R}^2$, $J$ is
# $2 \times 3$:
# $$J = \begin{pmatrix} x_1 & x_0 & 0 \\ 0 & 1 & 2x_2 \end{pmatrix}.$$
# PyTorch can build it (`torch.autograd.functional.jacobian`), so we can print it next to
# what `backward(gradient=v)` gives:

# %%
def two_outputs(x):
    return torch.stack([x[0] * x[1], x[1] + x[2] ** 2])

x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
J = torch.autograd.functional.jacobian(two_outputs, x)
v = torch.tensor([1.0, 10.0])
print("J =\n", J)
print("v^T J computed from J:        ", v @ J)
two_outputs(x).backward(gradient=v)
print("x.grad after backward(gradient=v):", x.grad)

# %% [markdown]
# ### Exercise: a vector-Jacobian product
#
# Complete `vjp(f, x, v)`: `f` maps a vector to a vector, `v` has the shape of `f(x)`. Return
# $v^\top J$ at `x`, passing `v` to `backward(gradient=...)` (not through `(y * v).sum()`, even
# though it gives the same numbers). `x` does not require grad; do not change `x` or `v`: work
# on a copy.

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
# ### Written answer
#
# **Why does `backward()` without arguments only work on a scalar output?** Explain in two or
# three sentences what it would have to compute for a vector output, and how `gradient=` solves
# it. Write it in the cell below. It has no self-check: your instructor grades it by hand.

# %% [markdown] answer why_scalar points=2
# A gradient is the derivative of one number with respect to many inputs. For a vector output
# the full derivative is a Jacobian matrix, which backward never builds; it needs a vector v to
# form v^T J, the quantity the chain rule actually uses. For a scalar, v = 1 is the only
# sensible choice, so PyTorch fills it in; for a vector it asks you, through gradient=v.

# %% [markdown]
# ## 8. Keeping an intermediate gradient: `retain_grad()`
#
# Section 3 showed that a non-leaf keeps no `.grad`. To keep one, call `retain_grad()` on it
# *before* `backward()`:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 3
h.retain_grad()
(h**2).sum().backward()
print("h.grad =", h.grad)    # d(sum h^2)/dh = 2h
print("x.grad =", x.grad)    # chain rule: 2h * 3

# %% [markdown]
# ### Exercise: the gradient of an intermediate
#
# For $h = \tanh(x)$ and $y = \sum_i h_i^2\,x_i$, complete `grads_with_intermediate(x)` so that
# it returns the pair `(dy_dx, dy_dh)`, both from one call to `backward()`.
#
# `x` does not require grad and must not change: work on a copy. Return two tensors shaped like
# `x`: `dy_dx` is what the copy's `.grad` holds, and `dy_dh` is what `h.grad` holds.

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
# ## 9. `torch.autograd.grad`: gradients without `.grad`
#
# `backward()` writes into `.grad` of every leaf, adding to what is there. `torch.autograd.grad`
# instead *returns* the gradients of the inputs you name, and touches no leaf's `.grad`. It
# takes `grad_outputs=` where `backward()` takes `gradient=`, and `retain_graph=` like
# `backward()`. Naming an input the output does not depend on is an error (unless you pass
# `allow_unused=True`).

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = (x**2).sum()
(dx,) = torch.autograd.grad(y, x)
print("returned:", dx)
print("x.grad:  ", x.grad)

# %% [markdown]
# ### Exercise: a Jacobian row by row
#
# Section 7 said that row $i$ of the Jacobian of $f: \mathbb{R}^n \to \mathbb{R}^m$ is the
# gradient of the output $y_i$. Complete `jacobian_rows(f, x)` to return the $m \times n$
# Jacobian at `x`, one `backward()` (or `torch.autograd.grad`) call per row. PyTorch's
# `jacobian()` is off limits here. `x` does not require grad; do not change `x`: work on a copy.

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
# ## 10. The chain rule by hand
#
# Autograd applies the chain rule for you; doing it once by hand shows what it computes.
#
# ### Exercise: a derivative by hand
#
# For $f(x) = \sin(x^2)\, e^{-x}$ (elementwise), complete `hand_derivative(x)` to return $f'(x)$
# as a formula (`torch.sin`, `torch.exp`, ...), no autograd. The check
# compares it with autograd's result on random inputs. Derive it: a finite-difference estimate,
# $(f(x+h) - f(x-h)) / 2h$, evaluates $f$ at shifted points and does not count as a derivative by
# hand.

# %% solution hand_derivative
def hand_derivative(x):
    """f'(x) for f(x) = sin(x**2) * exp(-x), derived by hand."""
    ### BEGIN SOLUTION
    return torch.cos(x**2) * 2 * x * torch.exp(-x) - torch.sin(x**2) * torch.exp(-x)
    ### END SOLUTION

# %% check hand_derivative points=2

# %% [markdown]
# ## 11. Gradients of gradients: `create_graph=True`
#
# A gradient is a tensor too, computed by the backward pass. Normally autograd does not record
# that computation, so the gradient comes back with no `grad_fn`: it cannot be differentiated
# again. `create_graph=True` asks autograd to record the backward pass as a graph of its own.
#
# For $y = x^3$ at $x = 3$: $y' = 3x^2 = 27$ and $y'' = 6x = 18$.

# %%
x = torch.tensor(3.0, requires_grad=True)
y = x**3
(dy_dx,) = torch.autograd.grad(y, x, create_graph=True)
print("dy/dx   =", dy_dx)        # has a grad_fn: it can be differentiated
(d2y_dx2,) = torch.autograd.grad(dy_dx, x)
print("d2y/dx2 =", d2y_dx2)

# %% [markdown]
# Without `create_graph=True` the first derivative is a plain tensor, and PyTorch says so:

# %%
x = torch.tensor(2.0, requires_grad=True)
(dy_dx,) = torch.autograd.grad(x**3, x)
print("dy/dx =", dy_dx, "requires_grad:", dy_dx.requires_grad)
with shows_error(RuntimeError):
    torch.autograd.grad(dy_dx, x)

# %% [markdown]
# For a function of many inputs the second derivative is the **Hessian** $H$, the $n \times n$
# matrix of $\partial^2 f / \partial x_i \partial x_j$: the Jacobian of the gradient $g$. Like
# the Jacobian, it is rarely built: what optimisers need is a **Hessian-vector product** $Hv$.
# Since $H$ is the Jacobian of $g$, section 7 already says how to get such a product without the
# matrix: $Hv$ (for the symmetric $H$ of a smooth $f$) is the gradient of the scalar $g \cdot v$,
# one more backward pass through the graph that `create_graph=True` kept. PyTorch's own
# `hvp()` computes it; here it is for $f(x) = (\sum_i x_i^2)^2$, next to the full Hessian times
# $v$. `hvp(f, x, v)` returns the pair `(f(x), Hv)`, hence the `[1]`:

# %%
def f(x):
    return (x**2).sum() ** 2

x = torch.tensor([1.0, 2.0])
v = torch.tensor([1.0, -1.0])
H = torch.autograd.functional.hessian(f, x)
print("H =\n", H)
print("H @ v       =", H @ v)
print("hvp(f, x, v)=", torch.autograd.functional.hvp(f, x, v)[1])   # [0] would be f(x)

# %% [markdown]
# ### Exercise: a Hessian-vector product
#
# Complete `hvp(f, x, v)`: `f` maps a vector `x` to a scalar, `v` has the shape of `x`. Return
# $Hv$, the Hessian of `f` at `x` times `v`, by differentiating twice with
# `create_graph=True`. PyTorch's `hessian()`, `hvp()` and `vhp()`, and `torch.func`, are off
# limits here. `x` does not require grad; do not change `x` or `v`: work on a copy.

# %% solution hvp
def hvp(f, x, v):
    """H v for the Hessian H of the scalar f at x, from two differentiations."""
    ### BEGIN SOLUTION
    x = x.detach().clone().requires_grad_(True)
    (g,) = torch.autograd.grad(f(x), x, create_graph=True)
    (hv,) = torch.autograd.grad((g * v).sum(), x)
    return hv
    ### END SOLUTION

# %% check hvp points=2

# %% [markdown]
# ## Summary
#
# The core:
#
# - `backward()` walks the graph from a scalar and **adds** gradients into `.grad` of leaves.
# - On a non-scalar output, reduce it first or pass `gradient=v` (the gradient of
#   $\sum_i v_i y_i$).
# - Non-leaf tensors keep no `.grad`.
# - The graph is freed after `backward()`; `retain_graph=True` keeps it for another call. `.grad`
#   is updated in place (keep a `.clone()`); reset it before reusing a leaf.
#
# Going further:
#
# - A graph with nothing saved can be walked twice without an error: reset `.grad` whenever you
#   reuse a leaf.
# - `gradient=v` is a vector-Jacobian product $v^\top J$, what the chain rule passes along.
# - `retain_grad()` keeps a non-leaf's gradient.
# - `torch.autograd.grad` returns gradients instead of accumulating them.
# - `create_graph=True` records the backward pass, so a gradient can be differentiated again
#   (second derivatives, Hessian-vector products).
#
# Next, lesson 3: turning autograd off.

# %% [markdown]
# ## Where am I
#
# Run this cell to see each exercise of this lesson, the core first: which pass, which are not
# attempted yet, and, for the others, the first sentence of what their check says. The written
# answer of section 7 is listed by its points only: your instructor grades it by hand.

# %%
check.progress(globals())
