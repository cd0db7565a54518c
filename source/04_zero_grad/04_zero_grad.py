# %% [markdown]
# # Lesson 4: Reading and zeroing `.grad`
#
# In lesson 2 you saw that `backward()` *adds* into `.grad`. Here you learn to reset it, and
# where the reset goes in a training step.
#
# **The core** is sections 1 to 3, with two exercises: about 10 to 12 minutes. **Going further**
# (sections 4 to 9, about an hour more) can wait: do it now or later.
#
# **The grade** is the points of every graded cell, going further's too, and of a written answer
# graded by hand: going further is not needed for the next lesson, but full marks need it.
#
# **Exercises.** Complete the function, then run the cell below it: it says *correct*, *not
# attempted*, or what is wrong in autograd terms. `check.NAME.hint()` gives a nudge (call it
# again for more). *Where am I*, the last cell, lists what passes so far.

# %%
import torch
from torch import nn

from course.visuals.draw_graph import draw_graph
from course.exercises import zero_grad as check
from course.visuals.grad_history_plot import plot_grad_history
from course.visuals.gradient_plot import plot_gradient
from course.visuals.pitfall import shows_error
from course.questions.zero_grad import ask

# %% [markdown]
# # The core
#
# ## 1. `.grad` starts as `None`, then adds up
#
# A leaf that requires grad (a tensor you make, or a layer's parameter) has no gradient until a
# backward pass reaches it: `.grad` is `None`, not zeros. The first `backward()` stores a tensor
# there; each later one *adds* to it. For $y = x^2$ at $x = 1.5$ each call adds $2x = 3$:

# %%
x = torch.tensor(1.5, requires_grad=True)
print("before backward:", x.grad)
for call in range(1, 4):
    (x**2).backward()                 # a new forward pass each time
    print(f"after backward #{call}: x.grad = {x.grad.item()}")

# %% [markdown]
# ## 2. Resetting `.grad`: `zero_()`, `None`, and `zero_grad()`
#
# `x.grad.zero_()` fills the gradient with zeros, in place: the same tensor, the same memory.
# `x.grad = None` drops the tensor; the next `backward()` stores a new one.

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
(x**2).sum().backward()
first = x.grad
x.grad.zero_()
print("after zero_():", x.grad, "| same tensor:", x.grad is first)
x.grad = None
print("after = None: ", x.grad)

# %% [markdown]
# An optimizer such as `torch.optim.SGD` holds a model's parameters. Its `step()` moves each one
# against its `.grad`, and its `zero_grad()` resets them all, to `None` by default
# (`set_to_none=True`). A module has the same method: `model.zero_grad()`.

# %%
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
model(torch.ones(2, 3)).sum().backward()
print("after backward: ", model.weight.grad)
optimizer.zero_grad()
print("after zero_grad:", model.weight.grad)

# %% [markdown]
# ### Exercise: reset a list of parameters
#
# Complete `reset_grads(params, set_to_none)`: for every tensor in the list `params`, set its
# `.grad` to `None` when `set_to_none` is true, or zero the existing gradient **in place** when
# it is false. A parameter with no gradient yet (`.grad is None`) stays `None`. The list may be
# empty, or hold no gradient at all: then there is nothing to do.

# %% solution reset_grads
def reset_grads(params, set_to_none):
    """Reset .grad of each parameter: None, or zeros in the same tensor."""
    ### BEGIN SOLUTION
    for p in params:
        if p.grad is not None:
            if set_to_none:
                p.grad = None
            else:
                p.grad.zero_()
    ### END SOLUTION

# %% check reset_grads points=1

# %% [markdown]
# ## 3. Where `zero_grad()` goes in a training loop
#
# A training step is four calls: `optimizer.zero_grad()`, the forward pass
# `loss = loss_fn(model(x), y)`, `loss.backward()` to fill `.grad`, and `optimizer.step()` to
# apply it. The rule: **`.grad` must be empty when `backward()` starts, and full when `step()`
# runs.**
#
# Here the gradient is the same at every step. Reset at the top and each step moves `w` by the
# same amount; never reset and the moves grow, since `.grad` holds the sum of all gradients so
# far; reset between `backward()` and `step()` and `w` never moves:

# %%
c = torch.tensor([1.0, -2.0])
for reset in ("at the top", "never", "before step"):
    w = torch.zeros(2, requires_grad=True)
    optimizer = torch.optim.SGD([w], lr=0.1)
    for step in range(3):
        if reset == "at the top":
            optimizer.zero_grad()
        (w * c).sum().backward()
        if reset == "before step":
            optimizer.zero_grad()     # too late: wipes what backward() just computed
        optimizer.step()
    print(f"reset {reset:11}: w after 3 steps = {w.detach()}")

# %% [markdown]
# Resetting right after `step()` also keeps the rule: the next `backward()` then starts from
# `None`. But then the very first step relies on `.grad` being empty already. At the top, the
# step is right whatever came before it, which is why it is the usual place.

# %% [markdown]
# ### Exercise: one training step
#
# Complete `train_step(model, optimizer, x, y, loss_fn)`: one training step on the batch
# `(x, y)` with the `optimizer` given. The forward pass is `loss_fn(model(x), y)`: prediction
# first, target second (for most losses the order matters). Return the batch's loss, computed
# before the step, as a Python float (`loss.item()`). The check leaves old values in `.grad`,
# as an earlier step would.

# %% solution train_step
def train_step(model, optimizer, x, y, loss_fn):
    """Reset, forward, backward, step; returns the batch loss as a float."""
    ### BEGIN SOLUTION
    optimizer.zero_grad()
    loss = loss_fn(model(x), y)
    loss.backward()
    optimizer.step()
    return loss.item()
    ### END SOLUTION

# %% check train_step points=2

# %% [markdown]
# **That is the core.** `.grad` adds up; `zero_grad()` sets it to `None`; and in a training step
# the reset comes before `backward()`, at the top of the step. *Where am I* (the last cell)
# shows your two exercises.

# %% [markdown]
# # Going further (optional)

# %% [markdown]
# ## 4. Watching `.grad` add up
#
# `plot_gradient` draws $y = x^2$ with its tangent at $x = 1.5$, above the derivative $2x$ that
# autograd computes: the tangent's slope, and the height of the lower curve at $1.5$, is $3$,
# what one `backward()` puts in `.grad`. After section 1's three calls `.grad` held $9$: not the
# slope at $1.5$, but three of those slopes added up.

# %%
plot_gradient(lambda t: t**2, -0.5, 3.0, at=1.5)

# %%
ask("two_backwards_add_up")

# %% [markdown]
# A leaf used twice does not rely on this adding. In $y = 3x + x^2$, the leaf `x` feeds two
# operations, and each path sends its part of the gradient back ($3$ and $2x$). Within one pass,
# autograd first sums what arrives along every path ($3 + 2 \cdot 1.5 = 6$), then `AccumulateGrad`
# runs once and adds that sum into `x.grad`: the graph has one `AccumulateGrad` for `x`, where
# both paths end. (Section 9's hooks let you watch what arrives there.)

# %%
x = torch.tensor(1.5, requires_grad=True)
a = x * 3
b = x**2
y = a + b
y.backward()
print("x.grad =", x.grad)
draw_graph(y, names={"x": x, "a": a, "b": b, "y": y},
           title="x is used twice: both paths end in one AccumulateGrad")

# %% [markdown]
# The plot shows `x.grad` after each call: three backward passes add up to 9, `zero_()` brings it
# back to 0 and the next backward leaves 3 (one slope), setting it to `None` removes it, and the
# backward after that starts afresh at 3 too.

# %%
x = torch.tensor(1.5, requires_grad=True)
steps = []
for _ in range(3):
    (x**2).backward()
    steps.append(("backward()", x.grad.item()))
x.grad.zero_()
steps.append(("x.grad.zero_()", x.grad.item()))
(x**2).backward()
steps.append(("backward()", x.grad.item()))
x.grad = None
steps.append(("x.grad = None", None))
(x**2).backward()
steps.append(("backward()", x.grad.item()))
plot_grad_history(steps, one_call=3.0)

# %% [markdown]
# ### Exercise: watch `.grad` accumulate
#
# Complete `grad_history(f, x, k)`: `f` returns a scalar, `x` does *not* require grad. On a copy
# of `x` that requires grad, call `backward()` on `f` $k$ times **without** resetting, and return
# a tensor of shape `(k, *x.shape)` whose row `i` is what `.grad` held after call `i + 1`.
# Remember that `backward()` adds into the *same* `.grad` tensor each time, in place: a row you
# keep must not change when the next call adds to `.grad`.

# %% solution grad_history
def grad_history(f, x, k):
    """Rows: x.grad after 1, 2, ..., k backward() calls through f."""
    ### BEGIN SOLUTION
    x = x.detach().clone().requires_grad_(True)
    saved = []
    for _ in range(k):
        f(x).backward()
        saved.append(x.grad.clone())
    return torch.stack(saved)
    ### END SOLUTION

# %% check grad_history points=1

# %% [markdown]
# ## 5. `None` and zeros are not the same to an optimizer
#
# `None` is not a tensor. Code that uses `.grad` as a tensor after a reset to `None` stops with
# an error: a `TypeError` for an operator such as `+=`, an `AttributeError` for a method such
# as `add_()`. (Reading it is fine: `print(p.grad)` prints `None`.)
#
# Old code often relied on zeros, the default before PyTorch 2.0. Take weight decay, which
# shrinks every parameter a little at each step by adding `1e-4 * p` to its gradient. Written
# right after the reset, before `backward()`, it now stops:

# %%
torch.manual_seed(0)
model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
optimizer.zero_grad()
with shows_error(TypeError):
    with torch.no_grad():
        for p in model.parameters():
            p.grad += 1e-4 * p

# %% [markdown]
# The version that works adds the term after `backward()`, when `.grad` holds this step's
# gradient, and skips a parameter whose `.grad` is still `None`. (SGD can also do it for you:
# `torch.optim.SGD(params, lr=0.1, weight_decay=1e-4)`.)

# %%
x, y = torch.ones(2, 3), torch.zeros(2, 1)
optimizer.zero_grad()
nn.MSELoss()(model(x), y).backward()
gradient = model.weight.grad.clone()
with torch.no_grad():
    for p in model.parameters():
        if p.grad is not None:        # skip a parameter that has no gradient
            p.grad += 1e-4 * p
print("weight.grad is now gradient + 1e-4 * weight:",
      torch.allclose(model.weight.grad, gradient + 1e-4 * model.weight.detach()))
optimizer.step()

# %% [markdown]
# `None` also means "no gradient" to the optimizer: `step()` skips such a parameter entirely.
# A tensor of zeros is a gradient of zero, and some optimizers still move the parameter on it:
# weight decay shrinks it anyway, and momentum keeps it going. With `momentum=0.9`, SGD moves by
# a running sum (each step adds the new gradient to 0.9 times the last move), so after a zero
# gradient it still moves by what it remembers:

# %%
for set_to_none in (True, False):
    w = torch.tensor([1.0], requires_grad=True)
    momentum_sgd = torch.optim.SGD([w], lr=0.1, momentum=0.9)
    (3 * w).sum().backward()
    momentum_sgd.step()                                  # w = 1 - 0.1 * 3 = 0.7
    momentum_sgd.zero_grad(set_to_none=set_to_none)
    momentum_sgd.step()                                  # no new backward() in between
    print(f"set_to_none={set_to_none}: after the second step w = {w.item():.3f}")

# %%
ask("after_zero_grad")

# %% [markdown]
# ## 6. Gradient accumulation: a big batch in small pieces
#
# When a batch does not fit in memory, split it into $k$ micro-batches and let `.grad` add up:
# one forward and one `backward()` per micro-batch, then a single `step()`. Accumulation is now
# what you want.
#
# The loss of the big batch is a mean over all its rows. With equal micro-batches, that is the
# mean of the $k$ micro-batch losses, so divide each one by $k$ before `backward()`. Here the
# accumulated gradient matches the full batch:

# %%
torch.manual_seed(0)
model = nn.Linear(3, 1)
x, y = torch.randn(8, 3), torch.randn(8, 1)
loss_fn = nn.MSELoss()

model.zero_grad()
loss_fn(model(x), y).backward()
full_batch = model.weight.grad.clone()

k = 4
model.zero_grad()
for xb, yb in zip(x.chunk(k), y.chunk(k)):
    (loss_fn(model(xb), yb) / k).backward()
print("accumulated == full batch:", torch.allclose(model.weight.grad, full_batch))

# %% [markdown]
# In a training loop, the reset and the step then happen once every $k$ micro-batches. Here the
# reset comes right after `step()`, which section 3 allows: the next micro-batch's `backward()`
# starts from `None` (and `.grad` must be empty before the first one).
#
# ```python
# for i, (xb, yb) in enumerate(micro_batches):
#     (loss_fn(model(xb), yb) / k).backward()
#     if (i + 1) % k == 0:
#         optimizer.step()
#         optimizer.zero_grad()
# ```

# %% [markdown]
# ### Exercise: accumulate over micro-batches
#
# Complete `accumulated_grads(model, batches, loss_fn)`. `batches` is a list of `(x, y)` pairs,
# all with the same number of rows, and `loss_fn` averages over rows. Leave in each parameter's
# `.grad` the gradient of the mean loss over **all** rows, with one forward and one backward
# pass per micro-batch. The model's `.grad` holds leftovers from an earlier step: reset the
# leftover gradients first, once, before the first micro-batch. Do not step.

# %% solution accumulated_grads
def accumulated_grads(model, batches, loss_fn):
    """Fill .grad with the full-batch gradient, one micro-batch at a time."""
    ### BEGIN SOLUTION
    model.zero_grad()
    k = len(batches)
    for x, y in batches:
        (loss_fn(model(x), y) / k).backward()
    ### END SOLUTION

# %% check accumulated_grads points=2

# %% [markdown]
# ### Written answer
#
# **Why does `backward()` add into `.grad` instead of overwriting it?** Give a use of adding
# across calls (section 6 shows one; lesson 2's two losses another), and say what it costs in a
# training loop. Answer in two or three sentences.

# %% [markdown] answer why_accumulate points=2
# Adding lets several backward() calls build one gradient. First use: gradient accumulation,
# where a batch too big for memory is split into micro-batches, each loss divided by k gets its
# own backward(), and one step() applies the full-batch gradient. Second use: several losses, or
# separate graphs that share parameters (two forward passes through one model, say), each with
# its own backward(), leave the gradient of their sum without one combined graph in memory. The
# cost is that the previous step's gradient is still there, so every step must reset .grad
# (zero_grad()) before its backward(), and never between backward() and step(). (Paths inside one
# backward pass are not a reason: autograd sums them before AccumulateGrad runs.)

# %% [markdown]
# ## 7. Reading `.grad`: the global gradient norm
#
# `.grad` is worth reading, too. The size of all gradients together tells you whether training
# is exploding or stalling. The *global norm* lays every gradient end to end as one long vector
# and takes its length: the square root of the sum of every squared entry.
#
# Not every parameter has a gradient. A frozen layer (`requires_grad_(False)`) or a part of the
# model the loss did not use keeps `.grad` as `None`, and code that assumes a tensor stops:

# %%
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
model[0].requires_grad_(False)                 # freeze the first layer
model(torch.randn(5, 3)).sum().backward()
for name, p in model.named_parameters():
    print(f"{name:8} .grad is {'None' if p.grad is None else 'a tensor'}")
with shows_error(TypeError):
    norms = [torch.linalg.vector_norm(p.grad) for p in model.parameters()]

# %% [markdown]
# `torch.nn.utils.clip_grad_norm_` computes this norm, then rescales every gradient in place so
# that the norm is at most `max_norm`. Here you compute the norm yourself, without changing any
# `.grad`.

# %% [markdown]
# ### Exercise: the global gradient norm
#
# Complete `grad_norm(model)`: return the global L2 norm of the gradients of all parameters of
# `model` whose `.grad` is not `None`, computed yourself from the `.grad` tensors (not with
# `clip_grad_norm_`), as a Python float or a one-element tensor: 0 when no parameter has a
# `.grad` (before any `backward()`, or after `zero_grad()`). Leave every `.grad` as it is.

# %% solution grad_norm
def grad_norm(model):
    """The length of all gradients of model, laid end to end."""
    ### BEGIN SOLUTION
    norms = [torch.linalg.vector_norm(p.grad) for p in model.parameters() if p.grad is not None]
    return torch.linalg.vector_norm(torch.stack(norms)) if norms else 0.0
    ### END SOLUTION

# %% check grad_norm points=1

# %% [markdown]
# ## 8. A complete training loop
#
# Time to put it together: linear regression, trained by gradient descent. First, the order of
# one step once more (section 3):

# %%
ask("wrong_step_order")

# %% [markdown]
# ### Exercise: fit a linear model
#
# Complete `fit_linear(x, y, steps, lr)`. `x` has shape `(n, d_in)` and `y` shape `(n, d_out)`:
# `d_out` targets per row, often just one (`d_out = 1`, y of shape `(n, 1)`).
#
# - Build `nn.Linear(d_in, d_out)`, with its bias, and set its weight and bias to **zeros**
#   (inside `torch.no_grad()`, or with `nn.init.zeros_`), so every correct answer gives the
#   same numbers.
# - Train it with `torch.optim.SGD(model.parameters(), lr=lr)` on `nn.MSELoss()` of `model(x)`
#   and `y` as they come (both of shape `(n, d_out)`), taking exactly `steps` steps, each on
#   the whole of `x` and `y`.
# - Return the trained model.
#
# The check runs its own reference training from the same zero start, for one output and for
# several, and compares your weight and bias with it.

# %% solution fit_linear
def fit_linear(x, y, steps, lr):
    """A linear model trained from zeros by full-batch SGD on the mean squared error."""
    ### BEGIN SOLUTION
    model = nn.Linear(x.shape[1], y.shape[1])
    with torch.no_grad():
        model.weight.zero_()
        model.bias.zero_()
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    loss_fn = nn.MSELoss()
    for _ in range(steps):
        optimizer.zero_grad()
        loss_fn(model(x), y).backward()
        optimizer.step()
    return model
    ### END SOLUTION

# %% check fit_linear points=2

# %% [markdown]
# ## 9. Hooks: seeing a gradient before it lands in `.grad`
#
# `backward()` does not have to be a black box. `t.register_hook(fn)` asks autograd to call
# `fn(grad)` with the gradient of `t` as it flows past, during `backward()`. Here the hook only
# prints what arrives at the intermediate `h`:

# %%
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
h = x * 2
h.register_hook(lambda grad: print("gradient arriving at h:", grad))
y = (h**2).sum()
y.backward()
print("x.grad:", x.grad)

# %% [markdown]
# Three more things about hooks:
#
# - a hook may *return* a tensor: it then replaces the gradient, and everything downstream (here:
#   `.grad` of the leaf) sees the new one;
# - that is the only way a hook should change a gradient: it must not modify the tensor it
#   receives in place, because autograd may hand that same tensor to other hooks and nodes;
# - registering returns a *handle*, and `handle.remove()` takes the hook away again.
#
# With $y = \sum x^3$ the gradient is $3x^2 = [3, 12, 27]$; a hook that returns it clamped to
# $[-5, 5]$ changes what lands in `.grad`:

# %%
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
handle = x.register_hook(lambda grad: grad.clamp(-5, 5))
(x**3).sum().backward()
print("with the hook:      ", x.grad)
handle.remove()
x.grad = None
(x**3).sum().backward()
print("after handle.remove:", x.grad)

# %% [markdown]
# A hook on a leaf runs just *before* its `AccumulateGrad`, with what that node receives. On
# section 4's $y = 3x + x^2$ it runs once, with both paths already summed ($3 + 2 \cdot 1.5$):

# %%
x = torch.tensor(1.5, requires_grad=True)
x.register_hook(lambda grad: print("arriving at x:", grad))
(x * 3 + x**2).backward()

# %% [markdown]
# So the hook sees one pass's gradient, not what `.grad` already holds. Two passes are each
# clipped, then added, so `.grad` can exceed the clip value:

# %%
x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
x.register_hook(lambda grad: grad.clamp(-5, 5))
for call in range(1, 3):
    (x**3).sum().backward()
    print(f"after backward #{call}: x.grad = {x.grad}")

# %% [markdown]
# To run code *after* `.grad` has been updated, PyTorch has
# `p.register_post_accumulate_grad_hook(fn)`. Its `fn` receives the tensor itself, not a
# gradient, and returns nothing; it reads (or changes) `p.grad`. It sees the running total:

# %%
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
w.register_post_accumulate_grad_hook(lambda p: print("w.grad is now", p.grad))
for call in range(2):
    (w**3).sum().backward()

# %% [markdown]
# That is how large models update each parameter *during* `backward()`: the hook takes the step
# as soon as the gradient is complete and frees it, so all the gradients never sit in memory at
# once. A sketch with plain SGD:

# %%
w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)


def step_now(p, lr=0.1):
    with torch.no_grad():
        p -= lr * p.grad
    p.grad = None                     # this gradient is used up: free it now


w.register_post_accumulate_grad_hook(step_now)
(w**3).sum().backward()               # 3 w**2 = [3, 12, 27]
print("w after backward alone:", w.detach(), "| w.grad:", w.grad)

# %%
ask("hook_runs_each_pass")

# %% [markdown]
# ### Exercise: clip gradients with hooks
#
# `clip_grad_norm_` (section 7) rescales gradients after `backward()`. Clip them while they flow
# instead. Complete `clip_with_hook(model, max_value)`:
#
# - register on every parameter of `model` (weights and biases alike) a hook with
#   `register_hook` that limits each entry of the arriving gradient to `[-max_value, max_value]`,
#   so that each backward pass's gradient is clipped before it is added into `.grad`;
# - let the hook return the clipped gradient and leave the tensor it receives unchanged: the
#   check has its own hook on each parameter, registered before yours, that holds that tensor;
# - leave the parameters' values as they are;
# - return a list of the handles that the registrations gave you.
#
# The check then runs two backward passes without a reset (so `.grad` may add up past
# `max_value`), removes your hooks with your handles, and checks that a third pass is not
# clipped. Then it calls `clip_with_hook` again on the same model, with another `max_value`:
# each call registers hooks of its own.

# %% solution clip_with_hook
def clip_with_hook(model, max_value):
    """Hooks clamping every parameter's incoming gradient; returns their handles."""
    ### BEGIN SOLUTION
    return [p.register_hook(lambda grad: grad.clamp(-max_value, max_value)) for p in model.parameters()]
    ### END SOLUTION

# %% check clip_with_hook points=2

# %% [markdown]
# ## Summary
#
# The core:
#
# - `.grad` is `None` until a backward pass reaches the leaf; after that, `backward()` **adds** into it.
# - Reset with `.grad.zero_()` (same tensor, zeros) or `.grad = None` (no tensor);
#   `optimizer.zero_grad()` and `model.zero_grad()` default to `set_to_none=True`.
# - In a training step, `.grad` must be empty when `backward()` starts and full when `step()`
#   runs: reset at the top of the step (or right after `step()`), never between `backward()` and
#   `step()`. Forgetting it applies the sum of all past gradients.
#
# Going further:
#
# - Within one pass, autograd sums a leaf's paths before `AccumulateGrad` adds into `.grad`; across
#   calls the sums keep adding up, in the same tensor (save a copy to keep a value).
# - Code that uses a `None` `.grad` as a tensor stops with an error (`TypeError` for an operator,
#   `AttributeError` for a method): skip it, or work after `backward()`; optimizers skip a `None`
#   gradient but step a zero one (momentum, weight decay).
# - To accumulate over $k$ micro-batches, divide each loss by $k$ and step once every $k$.
# - The global gradient norm reads every `.grad` that is not `None`, as one long vector.
# - `t.register_hook(fn)` sees each gradient as it flows, before it is added into `.grad`, and may
#   replace it by returning a new one (never by changing it in place);
#   `register_post_accumulate_grad_hook` runs after. Both return a
#   handle whose `remove()` takes the hook away.
#
# That is the whole course: you can now read a training loop and say what autograd records
# (lesson 1), computes (lesson 2), skips (lesson 3) and keeps (lesson 4).

# %% [markdown]
# ## Where am I
#
# Run this cell at any time: it runs each exercise's check quietly on your own functions and
# lists which pass, which fail (with the first sentence of why) and which you have not
# attempted yet: the core's two exercises first, then the going-further ones.

# %%
check.progress(globals())
