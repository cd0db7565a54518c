# %% [markdown]
# # Lesson 2: `backward()` and gradients
#
# Lesson 1 recorded a graph; this lesson walks it backwards to get gradients.
#
# **The core** (sections 1 to 4, two exercises, about 10 to 12 minutes): `backward()` fills
# `.grad`, needs a scalar, adds into `.grad`, and frees the graph. **Going further** (sections 5
# to 11, about 80 minutes more) can wait: do it now or later.
#
# **The grade** is the points of every graded cell, going further's too, and of a written answer
# graded by hand: going further is not needed for the next lesson, but full marks need it.
#
# **Exercises.** Complete the function, then run the check below it: *Correct*, *Not attempted
# yet*, or what is wrong in autograd terms. `check.NAME.hint()` gives a nudge. The grader runs the
# same checks on new random inputs.

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
# ## 1. `backward()` fills `.grad`
#
# `backward()` walks the recorded graph from the output back to the leaves, applying the chain
# rule, and stores each leaf's gradient in its `.grad`. Only leaves that require grad get one;
# until then their `.grad` is `None`. For $y = x^2$ at $x = 3$, $dy/dx = 2x = 6$:

# %%
x = torch.tensor(3.0, requires_grad=True)
print("before:", x.grad)
y = x ** 2
y.backward()
print("after: ", x.grad)

# %% [markdown]
# The exercises give you an `x` that does *not* require grad, to be left as it was. Work on a
# copy: `x.detach()` drops the history, `.clone()` gives the values memory of their own, and
# `.requires_grad_(True)` makes the copy a leaf that records.

# %%
x = torch.tensor([1.0, 2.0])          # given to you: it does not require grad
xc = x.detach().clone().requires_grad_(True)
(xc ** 2).sum().backward()
print("xc.grad =", xc.grad)
print("x: requires_grad =", x.requires_grad, "| grad =", x.grad, "(unchanged)")

# %% [markdown]
# ### Exercise: a gradient with `backward()`
#
# Complete `grad_via_backward(f, x)`: `f` returns a scalar; `x` (any shape) does not require
# grad. Return $\partial f / \partial x$ at `x`, found with `backward()`, and leave `x` as it
# was.

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
# A gradient says how *one number* changes as the inputs move, so `backward()` with no
# arguments needs a scalar output. On a vector it stops:

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
y = x * 2
with shows_error(RuntimeError):
    y.backward()

# %% [markdown]
# Reduce it to one number first, with `.sum()` or `.mean()` (section 7 shows another way):

# %%
y.sum().backward()
print("x.grad =", x.grad)    # d(sum of 2x)/dx = 2 for each element

# %%
ask("which_backward_call")

# %% [markdown]
# ## 3. `.grad` adds up, in place
#
# `backward()` **adds** into `.grad`; it never replaces what is there. Two passes give twice
# the gradient, and `x.grad = None` starts again from nothing:

# %%
x = torch.tensor(2.0, requires_grad=True)
(x**3).backward()                 # 3x^2 = 12
(x**3).backward()                 # a new pass: 12 more
print("after two passes:", x.grad)
x.grad = None                     # the reset
(x**3).backward()
print("after a reset:   ", x.grad)

# %% [markdown]
# The adding is **in place**: `g = x.grad` is the very tensor the next `backward()` changes,
# while `x.grad.clone()` is a copy that keeps its value.

# %%
x = torch.tensor(2.0, requires_grad=True)
(x**3).backward()
g = x.grad                        # the .grad tensor itself
kept = x.grad.clone()             # a copy of its value now
(x**3).backward()
print("x.grad:", x.grad, "| g:", g, "| kept:", kept)

# %% [markdown]
# ## 4. The graph is freed after `backward()`
#
# To save memory, `backward()` frees what the graph saved for the backward pass, so a second
# `backward()` through the same graph fails (section 6 shows when it does not):

# %%
x = torch.tensor(2.0, requires_grad=True)
y = torch.sin(x) * x
y.backward()
with shows_error(RuntimeError):
    y.backward()

# %% [markdown]
# To walk one graph twice, pass `retain_graph=True` to every call but the last:

# %%
x = torch.tensor(2.0, requires_grad=True)
y = torch.sin(x) * x
y.backward(retain_graph=True)     # the graph is kept
print("after one pass:  ", x.grad)
y.backward()                      # the last call frees it
print("after two passes:", x.grad)    # added up (section 3)

# %% [markdown]
# ### Exercise: two losses on one graph
#
# For $h = \sin(x) \cdot x$, `loss1 = h.sum()` and `loss2 = (h**2).mean()`, complete
# `two_losses(x)` to return (gradient of `loss1`, gradient of `loss2`) with respect to `x`,
# computing `h` once and leaving `x` as it was. One step per rule:
#
# 1. on a copy of `x` (section 1), compute `h` and call `backward()` from `loss1`, keeping the
#    graph (section 4);
# 2. keep a `.clone()` of the copy's `.grad`, which the next `backward()` changes (section 3);
# 3. set the copy's `.grad` to `None`, so `loss1`'s gradient does not add into `loss2`'s
#    (section 3);
# 4. call `backward()` from `loss2`, and return both gradients.

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
# **That is the core.** What follows can wait; its exercises count toward the grade like the
# core's.

# %% [markdown]
# # Going further (optional)
#
# ## 5. Explore: graphs, backward() step by step, slopes
#
# With two leaves, each gets its own partial derivative. For $L = ab + b^2$ at $a = 2$, $b = 4$:
# $\partial L / \partial a = b = 4$ and $\partial L / \partial b = a + 2b = 10$.

# %%
a = torch.tensor(2.0, requires_grad=True)
b = torch.tensor(4.0, requires_grad=True)
L = a * b + b**2
L.backward()
print("a.grad =", a.grad, "| b.grad =", b.grad)

# %% [markdown]
# Here is that graph, drawn from the output down to the leaves; after `backward()`, each leaf
# shows the gradient that landed in its `.grad`. `b` feeds two operations: its gradient is the
# sum of what arrives along both paths.

# %%
draw_graph(L, names={"a": a, "b": b, "L": L}, title="L = a*b + b**2 after L.backward()")

# %% [markdown]
# Now type a function of `x` and `y` in the box and press Enter (you can use `+ - * / **` and
# `sin`, `cos`, `exp`, `log`, `sqrt`, `tanh`, ...). You see the graph autograd records for it,
# and `x.grad`, `y.grad` after `backward()`. Try `x * x` (one leaf used twice: a single arrow,
# marked ×2), or `x + 1` (what does `y.grad` say when `f` does not use `y`?).

# %%
expression_graph("x * y + sin(x)", x=1.0, y=2.0)

# %% [markdown]
# The same graph again, and this time `backward()` is run one node at a time. Move the
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
# Section 2 reduced a vector output to one number before `backward()`. `backward()` can also
# take the weights itself: `y.backward(gradient=v)`, with `v` a tensor of `y`'s shape, gives the
# gradient of $\sum_i v_i y_i$ (`.sum()` is `v` all ones).

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
v = torch.tensor([1.0, 0.1, 0.01])
(x**2).backward(gradient=v)
print("x.grad =", x.grad)     # 2x weighted by v: [2*1*1, 2*2*0.1, 2*3*0.01]

# %% [markdown]
# Why weights? Some linear algebra. A function $y = f(x)$ from $n$ inputs to $m$ outputs has one
# partial derivative per pair (output $i$, input $j$). Arranged in a table with one row per
# output and one column per input, they form the **Jacobian** $J$, an $m \times n$ matrix:
# $J_{ij} = \partial y_i / \partial x_j$. Row $i$ is the gradient of the one output $y_i$.
#
# A row vector $v^\top$ of $m$ numbers times $J$ is a row of $n$ numbers,
# $(v^\top J)_j = \sum_i v_i J_{ij}$: a weighted sum of $J$'s rows. That is what
# `gradient=v` computed above: the gradient of $\sum_i v_i y_i$ is $\sum_i v_i \nabla y_i = v^\top J$.
#
# Why this product? When $y$ feeds a later scalar $L$, the chain rule says
# $\partial L / \partial x_j = \sum_i (\partial L / \partial y_i)\, J_{ij}$: $v^\top J$ with
# $v = \partial L / \partial y$. So `backward()` never needs $J$ itself, only its product with the
# gradient arriving from above, which is what it passes from node to node.
#
# For $y = x^2$ elementwise, $J$ is diagonal (each $y_i$ depends on $x_i$ only) with entries
# $2x_i$, so $v^\top J = (2 x_i v_i)_i$, the numbers printed above. Here is a case with $J$ in
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
# Complete `vjp(f, x, v)`: `f` maps a vector to a vector (of one element, at times), `v` has
# the shape of `f(x)`. Return $v^\top J$ at `x`, passing `v` to `backward(gradient=...)` (not
# through `(y * v).sum()`, even though it gives the same numbers). `x` does not require grad;
# leave `x` and `v` as they were given (work on a copy).

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
# ## 8. Only leaves keep `.grad`: `retain_grad()`
#
# Intermediate results (tensors with a `grad_fn`) take part in `backward()`, but autograd does
# not keep their gradients, to save memory: `.grad` of a non-leaf is `None`, with a warning.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
h = x * 3                    # not a leaf: h.grad_fn is set
h.sum().backward()
with shows_warning():
    print("h.grad is", h.grad)
print("x.grad is", x.grad)

# %% [markdown]
# To keep one, call `retain_grad()` on that very tensor *before* `backward()`:

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
# `x` (any values, large ones too) does not require grad; leave it as it was given (work on a
# copy). Return two tensors shaped like `x`: `dy_dx` is what the copy's `.grad` holds, and
# `dy_dh` is what `h.grad` holds.

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
# `backward()` writes into `.grad` of every leaf that requires grad, adding to what is there. `torch.autograd.grad`
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
# Jacobian at `x` (`f` may have one output), one `backward()` (or `torch.autograd.grad`) call per
# row. PyTorch's `jacobian()` is off limits here. `x` does not require grad; leave it as it was
# given (work on a copy).

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
# as a formula (`torch.sin`, `torch.exp`, ...), with no autograd in any form (`backward()`,
# `torch.autograd`, `torch.func`). The check compares it with autograd's result on random inputs. Derive it: a finite-difference estimate,
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
# $Hv$, the Hessian of `f` at `x` times `v`, without building $H$: differentiate twice, the
# first time with `create_graph=True`. `torch.autograd.functional` (its `hessian()`, `hvp()`,
# `jacobian()`, ...) and `torch.func` are off limits here. `x` does not require grad; leave `x`
# and `v` as they were given (work on a copy).

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
# - `backward()` walks the graph from a scalar output and stores each gradient in `.grad` of the
#   leaves that require grad; on a larger output, reduce it first (`.sum()`, `.mean()`).
# - `.grad` **adds up**, in place: keep a `.clone()` of a value you need, and set `.grad` to
#   `None` before reusing a leaf.
# - The graph is freed after `backward()`; `retain_graph=True` keeps it for another call.
#
# Going further:
#
# - A graph with nothing saved can be walked twice without an error: reset `.grad` whenever you
#   reuse a leaf.
# - `gradient=v` weights a vector output: a vector-Jacobian product $v^\top J$, what the chain
#   rule passes along.
# - Only leaves keep `.grad`; `retain_grad()` keeps a non-leaf's gradient too.
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
