# %% [markdown]
# # Lesson 3: Turning autograd off
#
# Lesson 2 ran `backward()` through a graph. This lesson is about the times you want *no* graph:
# `torch.no_grad()` for a block of code, `detach()` for one tensor, `requires_grad_(False)` for a
# parameter.
#
# **The core** is sections 1 to 4, with two exercises: about 10-12 minutes. **Going further**
# (sections 5 to 11, about 75 minutes more) can wait: do it now or later.
#
# **The grade** is the points of every graded cell, going further's too, and of a written answer
# graded by hand: going further is not needed for the next lesson, but full marks need it.
#
# **Exercises.** Complete the function, then run the cell below it: it says *correct*, *not
# attempted*, or what is wrong in autograd terms. `check.NAME.hint()` gives a nudge.

# %%
import torch
from torch import nn

from course.visuals.draw_graph import draw_graph
from course.exercises import no_grad as check
from course.visuals.gradient_plot import plot_gradient
from course.visuals.pitfall import shows_anomaly, shows_error
from course.questions.no_grad import ask

# %% [markdown]
# # The core
#
# ## 1. `torch.no_grad()`: nothing is recorded
#
# Recording costs memory: every operation keeps the values its backward step will need. Inside
# `with torch.no_grad():` autograd records nothing. Results get no `grad_fn` and do not require
# grad, even when their inputs do.

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)

y = (w * x).sum()
with torch.no_grad():
    y_off = (w * x).sum()
print("recorded:      y.grad_fn =", type(y.grad_fn).__name__)
print("under no_grad: y_off.grad_fn =", y_off.grad_fn, " requires_grad =", y_off.requires_grad)
print("after the block, x.requires_grad =", x.requires_grad)

# %% [markdown]
# `no_grad()` switches the recorder, not the tensors: `x` still requires grad, and recording
# comes back on when the block ends.

# %% [markdown]
# ## 2. `detach()`: one tensor out of the graph
#
# `x.detach()` is a new tensor with the same values and no history. To autograd it is a
# constant: gradients stop there.

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
y = (w * x.detach()).sum()
y.backward()
print("w.grad =", w.grad)
print("x.grad =", x.grad)

# %% [markdown]
# ### Exercise: a stop-gradient
#
# A *stop-gradient* keeps a value in the forward pass and hides it from the backward pass.
# Complete `stop_gradient_product(x)`: return $z = x \cdot x^2$ (elementwise, for an `x` of any
# shape) with the $x^2$ factor detached, so that $z$ has the value $x^3$ but $dz/dx = x^2$, not
# $3x^2$. `x` requires grad: build `z` from it, and leave `x` itself as it is. Return `z` without
# calling `backward()`: the check runs backward through it.

# %% solution stop_gradient_product
def stop_gradient_product(x):
    """z = x * x**2 with the x**2 factor treated as a constant by autograd."""
    ### BEGIN SOLUTION
    return x * (x**2).detach()
    ### END SOLUTION

# %% check stop_gradient_product points=2

# %% [markdown]
# ## 3. Freezing parameters
#
# Fine-tuning often trains only the last layer of a network. `requires_grad_(False)` on a
# parameter freezes it: `backward()` adds nothing to its `.grad` (None stays None) until the flag
# is switched back.
#
# An `nn.Sequential` runs its layers in order and is indexed like a list: `net[0]` is the first,
# `net[-1]` the last, and `net[:-1]` all but the last. A module's `requires_grad_(False)` sets the flag on all its parameters at
# once: an `nn.Linear`'s weight and bias (an activation such as `nn.ReLU()` has none).

# %%
torch.manual_seed(0)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
net[0].requires_grad_(False)           # net[0].weight and net[0].bias
net(torch.randn(5, 3)).sum().backward()
for name, p in net.named_parameters():  # "0.weight" is net[0].weight
    print(f"{name:9} requires_grad={p.requires_grad!s:5}  grad is None: {p.grad is None}")

# %% [markdown]
# ### Exercise: fine-tune the output layer
#
# Complete `freeze_all_but_output(model)`: `model` is an `nn.Sequential` of `Linear` layers and
# activations that ends in an `nn.Linear`, `model[-1]`. Freeze every parameter except those of
# `model[-1]`, which keep requiring grad. Change only these flags, on the model you are given:
# the same layers and values (and the same mode, section 7's `train()`/`eval()`). What you return is
# ignored.

# %% solution freeze_all_but_output
def freeze_all_but_output(model):
    """Only model[-1], the output layer, keeps requires_grad=True."""
    ### BEGIN SOLUTION
    model.requires_grad_(False)
    model[-1].requires_grad_(True)
    ### END SOLUTION

# %% check freeze_all_but_output points=2

# %% [markdown]
# ## 4. Which tool when
#
# All three keep gradients away, at different scales:
#
# | tool | acts on | lasts | typical use |
# |---|---|---|---|
# | `with torch.no_grad():` | each operation in the block | until the block ends | computing without a graph (updates, evaluation: going further) |
# | `t.detach()` | one tensor (a new one) | for that tensor | a stop-gradient |
# | `p.requires_grad_(False)` | the parameter itself | until switched back | fine-tuning |
#
# **That is the core.** *Where am I*, the last cell, shows your two exercises.

# %% [markdown]
# # Going further (optional)

# %% [markdown]
# ## 5. Updating parameters by hand: `no_grad()` at work
#
# A gradient descent step moves each parameter against its gradient:
# $w \leftarrow w - \mathrm{lr} \cdot \partial L / \partial w$. Written naively, it fails:
# changing a leaf that requires grad in place while autograd records is refused, since the update
# itself would become part of the graph.

# %%
w = torch.tensor([1.0, -2.0], requires_grad=True)
(w**2).sum().backward()
with shows_error(RuntimeError):
    w -= 0.1 * w.grad

# %% [markdown]
# Written out of place, `w = w - 0.1 * w.grad` runs, but it makes a new tensor (the result of a
# subtraction, not a leaf), and the tensor a model holds never changes. The right way: update in
# place inside `no_grad()`, then set `.grad` to `None` so that the next `backward()` starts from
# nothing (gradients add up, lesson 2). Here that fits a line to noisy points. (Older code writes
# `p.data -= ...`: section 9 shows why not.)

# %%
torch.manual_seed(0)
xs = torch.linspace(-1, 1, 20)
ys = 3 * xs - 0.5 + 0.1 * torch.randn(20)
slope = torch.zeros((), requires_grad=True)
bias = torch.zeros((), requires_grad=True)

losses = []
for step in range(40):
    loss = ((slope * xs + bias - ys) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in (slope, bias):
            p -= 0.2 * p.grad
            p.grad = None
    losses.append(loss.item())   # .item(): the value as a plain number, without the graph
print(f"slope = {slope.item():.2f}, bias = {bias.item():.2f}, still leaves: {slope.is_leaf and bias.is_leaf}")
print(f"loss: {losses[0]:.3f} at the start, {losses[-1]:.4f} after 40 steps")

# %% [markdown]
# PyTorch's optimizers package this step: `optimizer = torch.optim.SGD(params, lr=0.2)` holds the
# parameters, and `optimizer.step()` updates each one whose `.grad` is not None, in place and
# without recording. Lesson 4 is about resetting `.grad` between steps.

# %% [markdown]
# ### Exercise: an in-place SGD step
#
# Complete `sgd_step(params, lr)`. For each tensor `p` in the list `params`, subtract
# `lr * p.grad` from `p` itself, in place (not through `p.data`), then set `p.grad` to None. Skip
# tensors whose `.grad` is None (they took no part in the loss), as PyTorch's optimizers do.
#
# - `params` may hold tensors of any shape, a 0-d one (a single number, like `slope` above)
#   included, and it may be empty: then there is nothing to do.
# - Afterwards the list holds the same tensor objects, still leaves that require grad.
# - Leave autograd in the mode the caller had: the check also calls you inside its own
#   `no_grad()`.
# - Plain SGD remembers nothing: the check steps the same tensors again after another
#   `backward()`, and expects `lr * p.grad` of that call alone.
#
# The function works by changing the tensors; what it returns is ignored.

# %% solution sgd_step
def sgd_step(params, lr):
    """One in-place gradient descent step on each tensor of params that has a gradient."""
    ### BEGIN SOLUTION
    with torch.no_grad():
        for p in params:
            if p.grad is not None:
                p -= lr * p.grad
                p.grad = None
    ### END SOLUTION

# %% check sgd_step points=2

# %% [markdown]
# ## 6. `set_grad_enabled()` and `inference_mode()`
#
# Training and evaluation often share one function. `torch.set_grad_enabled(flag)` records when
# `flag` is True and not when it is False. As a `with` block it restores the previous mode
# afterwards.

# %%
def run_batch(w, x, train):
    with torch.set_grad_enabled(train):
        return (w * x).sum()

w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
x = torch.tensor([1.0, 2.0, 3.0])
print("train=True: ", run_batch(w, x, train=True).requires_grad)
print("train=False:", run_batch(w, x, train=False).requires_grad)
print("recording now:", torch.is_grad_enabled())

# %% [markdown]
# Called as a plain function, `torch.set_grad_enabled(False)` switches recording off until you
# switch it on again, for every cell that follows; and `torch.set_grad_enabled(True)` switches it
# on even where the caller had it off. Prefer the `with` form: it puts back whatever it found
# (`torch.is_grad_enabled()` tells the mode now).
#
# `no_grad()` also works as a decorator: `@torch.no_grad()` above a `def` runs every call of the
# function without recording, and puts the caller's mode back when it returns.

# %%
@torch.no_grad()
def doubled(t):
    return t * 2

print("doubled(w).requires_grad =", doubled(w).requires_grad, "| recording after the call:",
      torch.is_grad_enabled())

# %% [markdown]
# What such a result becomes once recording is back on:

# %%
ask("result_of_no_grad_later")

# %% [markdown]
# `torch.inference_mode()` also stops the recording, and goes further: its results, *inference
# tensors*, get no version counter (section 9) and no record of which tensor they are a view of,
# the bookkeeping autograd needs before it can save a tensor for backward. That makes it a little
# faster.

# %%
with torch.inference_mode():
    y_inf = (w * x).sum()
with torch.no_grad():
    y_ng = (w * x).sum()
print("inference_mode: requires_grad =", y_inf.requires_grad, " is_inference =", y_inf.is_inference())
print("no_grad:        requires_grad =", y_ng.requires_grad, " is_inference =", y_ng.is_inference())

# %% [markdown]
# The price: autograd cannot save an inference tensor for backward, ever, so a recorded operation
# that needs its value (such as the multiplication below) refuses it. A `no_grad()` result
# works anywhere, as a constant. Here is PyTorch's own message:

# %%
with torch.inference_mode():
    scale = torch.tensor([1.0, 2.0, 3.0]) * 2
with shows_error(RuntimeError):
    (w * scale).sum()

# %% [markdown]
# The way out is the one PyTorch names: `clone()` makes a normal tensor. Nor can an inference
# tensor be changed in place outside inference mode. So use `inference_mode()` for code that only
# predicts, and `no_grad()` when the results may flow back into training.

# %%
(w * scale.clone()).sum().backward()
print("w.grad =", w.grad)
with shows_error(RuntimeError):
    scale.add_(1)

# %% [markdown]
# ## 7. `model.eval()` is a different switch
#
# `model.eval()` sets the `training` flag of a module and all its submodules. That changes what
# some layers *compute*: Dropout stops dropping, BatchNorm uses its running statistics. It does
# nothing to autograd:

# %%
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Dropout(p=0.5), nn.Linear(8, 1))
inputs = torch.randn(3, 4)

model.eval()
out = model(inputs)
print("after eval(): training =", model.training, " requires_grad =", out.requires_grad,
      " grad_fn =", type(out.grad_fn).__name__)

# %% [markdown]
# `model.train()` switches back, and `model.train(flag)` sets the mode you pass (False is eval).
# And the other way round: `no_grad()` (or `inference_mode()`) does not put the model in eval
# mode. In train mode Dropout still drops a random half of the units, so two runs on the same
# input differ. To evaluate, you want both: eval mode for the layers, `no_grad()` for autograd.

# %%
model.train()
with torch.no_grad():
    first, second = model(inputs), model(inputs)
print("training =", model.training, " same output twice:", torch.equal(first, second))

# %%
ask("eval_and_autograd")

# %% [markdown]
# ### Exercise: evaluate a model
#
# Complete `evaluate(model, x)`: return `model(x)` computed in eval mode and without a graph:
# autograd must record nothing during the forward pass (a graph recorded and then cut off with
# `detach()` has already cost its memory). Leave everything as you found it:
#
# - the model's mode: the caller's model may be in train or eval mode (`model.training` tells you
#   which), and comes back in that mode;
# - its parameters' flags: a caller fine-tuning the model may have frozen some of them, and the
#   rest require grad;
# - autograd's mode: a validation loop may call you inside its own `no_grad()` (the check does
#   so once).

# %% solution evaluate
def evaluate(model, x):
    """model(x) in eval mode, with no graph; the model is left in the mode it came in."""
    ### BEGIN SOLUTION
    was_training = model.training
    model.eval()
    with torch.no_grad():
        out = model(x)
    model.train(was_training)
    return out
    ### END SOLUTION

# %% check evaluate points=2

# %% [markdown]
# ### Written answer
#
# **What do `model.eval()` and `torch.no_grad()` each change, and why does a validation loop
# need both?** Answer in two or three sentences.

# %% [markdown] answer eval_and_no_grad points=2
# model.eval() sets the training flag of every module, so layers such as Dropout and BatchNorm
# compute their evaluation behaviour (no dropping, running statistics); autograd still records.
# torch.no_grad() stops the recording, so no graph and no saved values are kept, but it leaves
# the layers in whatever mode they are in. Validation needs eval-mode outputs and no graph, so
# it needs both, and model.train() afterwards before training resumes.

# %% [markdown]
# ## 8. Getting numbers out: NumPy, `.item()`, and a stop-gradient at work
#
# First, what section 2 left out: `detach()` does not copy. The detached tensor shares memory
# with the original, so an in-place change to one shows in the other. `detach().clone()` makes
# an independent copy (lesson 2).

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
shared = x.detach()
copied = x.detach().clone()
with torch.no_grad():
    x[0] = 100.0
print("shared =", shared)
print("copied =", copied)

# %%
ask("detach_shares_memory")

# %% [markdown]
# NumPy knows nothing about graphs, so while autograd records, `.numpy()` refuses a tensor that
# requires grad:

# %%
t = torch.tensor([1.0, 2.0], requires_grad=True)
with shows_error(RuntimeError):
    t.numpy()

# %% [markdown]
# `t.detach().numpy()` works, but `.numpy()` shares memory too: the array is a view of the
# tensor's storage. If `t` is a parameter that an optimizer later updates in place, your
# "saved" array changes with it.

# %%
t = torch.tensor([1.0, 2.0], requires_grad=True)
saved = t.detach().numpy()
with torch.no_grad():
    t += 10
print("the array after an in-place update of t:", saved)

# %% [markdown]
# ### Exercise: a NumPy snapshot
#
# Complete `to_numpy(t)`: return a NumPy array with the values, shape and dtype of `t`, that later
# in-place changes to `t` do not affect. `t` is any CPU tensor of dtype float16, float32 or
# float64: requiring grad or not, of any shape (a 0-d loss too), a view such as `w.T` too. Leave
# `t` itself as it is, flags included.
#
# (Why not *any* floating-point dtype? NumPy has no bfloat16, so `.numpy()` refuses such a
# tensor whatever you do first, and converting it with `.float()` changes the dtype. Your function
# will not be given one; this is only what happens if you try:)

# %%
with shows_error(TypeError):
    torch.ones(2, dtype=torch.bfloat16).numpy()

# %% solution to_numpy
def to_numpy(t):
    """A NumPy copy of t's values, independent of t's storage."""
    ### BEGIN SOLUTION
    return t.detach().clone().numpy()
    ### END SOLUTION

# %% check to_numpy points=1

# %% [markdown]
# **Keep the number, not the tensor.** Section 5 logged each loss with `loss.item()`. Why not
# `total_loss += loss`? That adds *tensors*, and autograd records the sum: `total_loss` gets a
# `grad_fn`, and its graph reaches back into every batch, keeping all their saved values in
# memory for as long as `total_loss` lives.

# %%
w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
total_loss = 0
for batch in range(3):
    loss = (w**2).sum() * (batch + 1)
    total_loss += loss
print("total_loss.grad_fn =", type(total_loss.grad_fn).__name__)
draw_graph(total_loss, names={"w": w, "total_loss": total_loss})

# %% [markdown]
# `loss.item()` gives a Python float (and `loss.detach()` a tensor without history), so each
# batch's graph is freed as soon as you are done with it.
#
# **A stop-gradient at work.** The straight-through trick, `x + (round(x) - x).detach()`, has the
# value `round(x)`, but its gradient is that of `x` alone, 1 everywhere. The real derivative of a
# staircase is 0 on every step; the plot shows what autograd reports instead, and why networks
# with rounding inside can still learn.

# %%
def round_straight_through(x):
    return x + (torch.round(x) - x).detach()

plot_gradient(round_straight_through, -2, 2, at=0.8)

# %% [markdown]
# ## 9. In-place changes and the version counter
#
# Every tensor carries a version counter, `t._version`. Each in-place operation adds one:
# `add_()`, `+=`, `*=`, and also assigning into a slice, `t[0] = ...`.

# %%
t = torch.zeros(3)
print("new:                      ", t._version)
t += 1
print("after t += 1:             ", t._version)
t[0] = 5.0
print("after t[0] = 5:           ", t._version)
with torch.no_grad():
    t.mul_(2)
print("after t.mul_(2), no_grad: ", t._version)
t.data.mul_(2)
print("after t.data.mul_(2):     ", t._version)

# %% [markdown]
# `no_grad()` does not stop the counter, which is why section 5's SGD step stays visible to
# autograd. `.data`, the old way to reach a tensor's values, does: a change through it is
# invisible.
#
# Why count? Many backward steps need values from the forward pass, and autograd saves them
# with their version. `exp` saves its own output, since the derivative of $e^a$ is $e^a$. A
# softmax written the NumPy way divides that output in place, and `backward()` refuses:

# %%
a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
weights = torch.tensor([1.0, 2.0, 3.0])
e = torch.exp(a)      # exp saves its output e for its backward step
e /= e.sum()          # in place on e
with shows_error(RuntimeError):
    (e * weights).sum().backward()

# %% [markdown]
# **Reading the message.** `[torch.FloatTensor [3]]` is the tensor that changed: its type and
# shape. `output 0 of Exp` says who saved it: the output of `exp`. `is at version 1; expected
# version 0` says it was saved at version 0 and changed in place once since. So: look for the
# in-place steps on `exp`'s result after `exp` ran; here there is one, `e /= ...`.
#
# In a long function, follow the message's hint: under `torch.autograd.set_detect_anomaly(True)`
# autograd records where each operation was called, and the failure comes with a warning whose
# traceback ends at the forward line of the operation that saved the tensor. The in-place step
# to change is on its result, on that line or later. (Anomaly mode slows everything down: use it
# to debug, then switch it off.) The course's `shows_anomaly()` runs its block in anomaly mode
# and prints the error, then the warning's first line and the last line of its traceback:

# %%
with shows_anomaly():
    e = torch.exp(a)
    e /= e.sum()
    (e * weights).sum().backward()

# %% [markdown]
# `no_grad()` is no way out: the counter still moves, and the saved value is still wrong.

# %%
e = torch.exp(a)
with torch.no_grad():
    e /= e.sum()
with shows_error(RuntimeError):
    (e * weights).sum().backward()

# %% [markdown]
# And `.data` is worse than no way out. Sigmoid's backward uses its own output too. Change that
# output through `detach()`, which shares the version counter, and `backward()` refuses, naming
# the culprit; change it through `.data`, and the counter does not move: `backward()` returns a
# wrong gradient without a word. (The true gradient, $\sigma(a)(1 - \sigma(a))$, is never 0.)

# %%
a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
out = torch.sigmoid(a)
out.detach().zero_()
with shows_error(RuntimeError):
    out.sum().backward()

out = torch.sigmoid(a)
out.data.zero_()
out.sum().backward()
print("through .data, a.grad =", a.grad)

# %% [markdown]
# **The fix**: leave the saved tensor alone. Make the step out of place, `e = e / e.sum()`,
# which gives a new tensor and keeps `exp`'s output as it was saved (or let the in-place step
# work on a `clone()`). The gradient now matches PyTorch's own softmax:

# %%
a = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
e = torch.exp(a)
e = e / e.sum()
(e * weights).sum().backward()
reference = torch.autograd.grad((torch.softmax(a, 0) * weights).sum(), a)[0]
print("a.grad =", a.grad, " softmax's:", reference)

# %% [markdown]
# Not every in-place step is a problem: only a change to a tensor some backward step saved.
# `x * 2` saves nothing of its result, so adding to it in place is fine.

# %% [markdown]
# ### Exercise: fix an in-place step
#
# `squash_in_place(x)` computes what we want, but `backward()` through its result fails. Run the
# cell to read PyTorch's message.

# %%
def squash_in_place(x):
    h = x * 2
    h += 1
    y = torch.tanh(h)
    y *= 3
    y[:, 0] = 0
    return y

x = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)
with shows_error(RuntimeError):
    squash_in_place(x).sum().backward()

# %% [markdown]
# Complete `fix_inplace(x)`: for a 2-D `x` that requires grad, with any number of rows and
# columns and any values, return the same values as `squash_in_place(x)`, computed so that
# `backward()` through the result works and gives the right gradient. Keep every step a tensor operation that autograd
# records (no `detach()`, no `.data`, no NumPy): the check runs backward on your result with a
# random weighting of its elements. Which in-place steps must go, and which are harmless? A step
# matters only if it changes a tensor some backward step saved. The version in the message counts
# every such step since; once one is made out of place, the steps after it change the new tensor
# instead.

# %% solution fix_inplace
def fix_inplace(x):
    """squash_in_place(x), without the in-place step that breaks backward()."""
    ### BEGIN SOLUTION
    h = x * 2
    h += 1
    y = torch.tanh(h) * 3
    y[:, 0] = 0
    return y
    ### END SOLUTION

# %% check fix_inplace points=2

# %% [markdown]
# ## 10. Freezing any model
#
# First, section 4's table at work:

# %%
ask("freeze_first_layer")

# %% [markdown]
# In `freeze_all_but_output` the layer to keep training was `model[-1]`. Many models end
# otherwise: with an activation (a `Sigmoid` for a probability, a `Tanh` to bound the output), or
# several. An activation has no parameters, so the layer that trains is the last one that *has*
# some, and a `Linear` made with `bias=False` has a weight alone:

# %%
head = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1, bias=False), nn.Sigmoid())
for i, layer in enumerate(head):
    print(f"head[{i}] {type(layer).__name__:8} parameters: {[name for name, _ in layer.named_parameters()]}")

# %% [markdown]
# One slip to avoid on the way: on a module, assigning `.requires_grad = False` (where section 3
# called `requires_grad_(False)`) only sets a plain Python attribute, and changes no parameter:

# %%
layer = nn.Linear(4, 2)
layer.requires_grad = False            # a plain attribute on the module, not a call
print("layer.weight.requires_grad =", layer.weight.requires_grad)

# %% [markdown]
# ### Exercise: freeze all but the last layer with parameters
#
# Complete `freeze_all_but_last(model)`: `model` is an `nn.Sequential` of `Linear` layers and
# activations, of any depth (a single `Linear` too). Freeze every parameter except those of the
# last layer that *has* parameters, which keep requiring grad. The model may end with one
# activation or several, and that last `Linear` may have no bias. As in
# `freeze_all_but_output`, change only the flags: the same layers, values and train/eval mode.
# What you return is ignored.

# %% solution freeze_all_but_last
def freeze_all_but_last(model):
    """Only the last layer with parameters keeps requires_grad=True."""
    ### BEGIN SOLUTION
    model.requires_grad_(False)
    with_parameters = [layer for layer in model if list(layer.parameters())]
    with_parameters[-1].requires_grad_(True)
    ### END SOLUTION

# %% check freeze_all_but_last points=2

# %% [markdown]
# ## 11. A frozen parameter keeps its old `.grad`
#
# `requires_grad_(False)` stops *new* gradients; it does not clear the one a parameter already
# holds. An optimizer that still holds the parameter steps every tensor whose `.grad` is not
# None (section 5), so a stale `.grad` is applied again at every step. Here the first layer is
# frozen after one ordinary step, and each later step resets only the gradients of the layer
# that trains:

# %%
for clear_frozen in (False, True):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2))
    optimizer = torch.optim.SGD(net.parameters(), lr=0.1)
    batch = torch.randn(5, 3)
    net(batch).sum().backward()
    optimizer.step()                        # one ordinary step
    net[0].requires_grad_(False)            # freeze the first layer
    if clear_frozen:
        for p in net[0].parameters():
            p.grad = None                   # the frozen layer's old gradient goes too
    frozen = net[0].weight.detach().clone()
    for step in range(3):
        for p in net[2].parameters():
            p.grad = None
        net(batch).sum().backward()
        optimizer.step()
    moved = (net[0].weight - frozen).abs().max().item()
    print(f"old .grad cleared: {clear_frozen!s:5}  the frozen weights moved by up to {moved:.3f}")

# %% [markdown]
# So after freezing, hand the optimizer only the trainable parameters,
# `torch.optim.SGD([p for p in net.parameters() if p.requires_grad], lr=0.1)`, or make sure the
# frozen ones' `.grad` is None. Lesson 4 is all about resetting `.grad`.

# %% [markdown]
# ## Summary
#
# The core:
#
# - `torch.no_grad()` records nothing inside its block: results have no `grad_fn`.
# - `detach()` cuts one tensor out of the graph: to autograd it is a constant.
# - `requires_grad_(False)` freezes parameters for fine-tuning, for as long as it stays off; a
#   module's `requires_grad_()` sets it on all of the module's parameters.
#
# Going further:
#
# - Update parameters in place inside `no_grad()` and reset `.grad`; `w = w - ...` makes a
#   non-leaf.
# - `torch.set_grad_enabled(flag)` is `no_grad()` when `flag` is False; as a plain call it does
#   not restore the mode. `@torch.no_grad()` runs each call of a function without recording.
#   `torch.inference_mode()` is stricter: its results are inference tensors, which autograd
#   cannot save for backward or change in place outside it.
# - `model.eval()` changes how layers compute, not whether autograd records; evaluate with both,
#   so that the forward pass records nothing at all.
# - `detach()` and `.numpy()` share memory with the original; copy for a snapshot. Log losses with
#   `.item()`, not by adding tensors.
# - In-place operations move a tensor's version counter (`no_grad()` included, `.data` not).
#   If a tensor autograd saved for backward has moved on, `backward()` refuses: the message
#   names who saved it and the versions; make that step out of place, or work on a clone.
#   Prefer `detach()` to `.data`, which can silently give wrong gradients.
# - The layer to keep training is the last one *with* parameters: activations have none.
# - Freezing does not clear an old `.grad`: hand the optimizer only the trainable parameters.
#
# Next, lesson 4: reading and zeroing `.grad`.

# %% [markdown]
# ## Where am I
#
# This cell runs each exercise's self-check quietly on your own functions and lists which pass,
# which fail (with the first words of the mistake) and which you have not attempted yet: the
# core's two exercises first, then the going-further ones. The written answer (section 7) is
# graded by hand, so it is listed only by its points.

# %%
check.progress(globals())
