# %% [markdown]
# # Lesson 1: `requires_grad` and the computational graph
#
# PyTorch finds gradients by remembering how each result was made: the graph autograd records
# while your code runs.
#
# **The core**, sections 1 to 4 with two exercises, is all that lesson 2 needs: about 10 to 12
# minutes. **Going further**, sections 5 to 9 (about an hour more), can wait: do it now or later.
#
# **The grade** is the points of every graded cell, going further's too, and of a written answer
# graded by hand: going further is not needed for the next lesson, but full marks need it.
#
# **Exercises:** complete the function, then run the cell below it. `check.NAME.hint()` gives a
# nudge.

# %%
import torch
from torch import nn

from course.visuals.backward_steps import backward_steps
from course.visuals.draw_graph import draw_graph
from course.exercises import graph as check
from course.visuals.gradient_plot import plot_gradient
from course.visuals.graph_text import graph_text
from course.visuals.pitfall import shows_error, shows_warning
from course.questions.graph import ask

# %% [markdown]
# # The core
#
# ## 1. Recording starts with `requires_grad`
#
# A tensor you create does not require grad unless you ask. Operations on it are computed and
# forgotten: the result has no `grad_fn`, the attribute where a tensor remembers its origin.

# %%
a = torch.tensor([1.0, 2.0, 3.0])
b = a * 2
print("a.requires_grad:", a.requires_grad, "| b.grad_fn:", b.grad_fn)

# %% [markdown]
# Ask with `requires_grad=True`, and every operation that uses the tensor is recorded: the result
# keeps a *backward node*, named after the operation, in `grad_fn` (`SumBackward0` for a sum;
# ignore the digit). One input that requires grad is enough:

# %%
w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
data = torch.tensor([1.0, 2.0, 3.0])          # plain data: does not require grad
out = (w * data).sum()
print("out.requires_grad:", out.requires_grad, "| made by", type(out.grad_fn).__name__)

# %% [markdown]
# ## 2. Leaves and results
#
# A tensor you create is a **leaf**: its `grad_fn` is `None`. A tensor made by a recorded
# operation is a **result**: its `grad_fn` is set. A tensor that does not require grad is a leaf
# even if computed (`c` below): nothing was recorded. Gradients (lesson 2) are kept only in
# leaves, the inputs you want to adjust.

# %%
x = torch.tensor(2.0, requires_grad=True)
y = x**2 + 1
c = torch.ones(2) * 3        # computed, but nothing here requires grad
for name, t in [("x", x), ("y", y), ("c", c)]:
    made_by = type(t.grad_fn).__name__ if t.grad_fn is not None else None
    print(f"{name}: is_leaf={t.is_leaf}, grad_fn={made_by}")

# %% [markdown]
# Only floating-point (and complex) tensors can require grad, and a list of ints makes an integer
# tensor. So give `torch.tensor` the dtype (its `dtype=` argument) along with `requires_grad=True`:
# converting afterwards, as `.double()` (to float64) does here, is a recorded operation, which gives
# a result:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True).double()
print("is_leaf:", x.is_leaf, "| grad_fn:", type(x.grad_fn).__name__)

# %% [markdown]
# ### Exercise: a float64 leaf from a list
#
# Complete `leaf_from_list(values)`. `values` is a list of numbers: ints, floats or both, maybe
# one, maybe none. Return a new `torch.float64` tensor of those values (a new one on each call)
# that requires grad and is a leaf. Choose float64 as you make it: `torch.tensor(values)` alone
# makes int64 from ints and float32 from floats, and float32 rounds `0.1` for good.

# %% solution leaf_from_list
def leaf_from_list(values):
    """A float64 leaf holding values, requiring grad."""
    ### BEGIN SOLUTION
    return torch.tensor(values, dtype=torch.float64, requires_grad=True)
    ### END SOLUTION

# %% check leaf_from_list points=1

# %% [markdown]
# ## 3. Walking the graph
#
# A backward node lists where the gradient goes next in `next_functions`: one `(node, index)`
# pair per input of the operation (ignore `index`). An input that does not require grad, like the
# `3` below, shows up as the pair `(None, 0)`, printed `None` below. Follow the first pair from node to node:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = torch.sin(x * 3).sum()
node = y.grad_fn
for _ in range(3):
    names = [type(n).__name__ if n is not None else None for n, _ in node.next_functions]
    print(type(node).__name__, "-> next:", names)
    node = node.next_functions[0][0]
print(type(node).__name__, "-> next_functions:", node.next_functions)
print("node.variable is x:", node.variable is x)

# %% [markdown]
# The walk ends at an `AccumulateGrad` node, whose `next_functions` is empty. Each leaf that
# requires grad has one: it will add the gradient into the leaf's `.grad` (lesson 2), and keeps the
# leaf in `.variable`.
#
# ### Exercise: the names along a chain
#
# In a *chain* like `y` above, each operation's first input is the one that requires grad.
# Complete `grad_fn_names(y)` to return the class names of the nodes from `y.grad_fn` down to
# `AccumulateGrad`, one per node: for the `y` above,
# `['SumBackward0', 'SinBackward0', 'MulBackward0', 'AccumulateGrad']`. Walk as the cell above
# does, in a `while` loop: record the name, stop if `next_functions` is empty, else step to the
# first pair's node.

# %% solution grad_fn_names
def grad_fn_names(y):
    """Class names of the backward nodes from y.grad_fn down to the leaf's AccumulateGrad."""
    ### BEGIN SOLUTION
    names = []
    node = y.grad_fn
    while True:
        names.append(type(node).__name__)
        if not node.next_functions:
            return names
        node = node.next_functions[0][0]
    ### END SOLUTION

# %% check grad_fn_names points=2

# %% [markdown]
# ## 4. A new graph on every forward pass
#
# Autograd records what actually runs, and each run records a new graph. So an ordinary Python
# `if` decides what is recorded, and a branch not taken leaves no trace. The course's `graph_text`
# prints a graph as a tree, the output on top:

# %%
def forward(x):
    if x.sum() > 0:
        return (x * 2).sum()
    return torch.exp(x).sum()

for values in ([1.0, 2.0], [-1.0, -2.0]):
    x = torch.tensor(values, requires_grad=True)
    print(f"x = {values}:")
    print(graph_text(forward(x), names={"x": x}), end="\n\n")

# %% [markdown]
# **That is the core**: lesson 2 starts from here. The sections below can wait; their exercises
# count for the grade when you do them. *Where am I*, at the bottom, lists what passes.
#
# # Going further (optional)
#
# ## 5. A function with a recorded graph
#
# Only torch operations on tensors are recorded. A function for plain Python numbers
# (`math.sin`, `float(x)`) or NumPy sees values, not tensors, and hands back a number with no
# history: the graph stops there. `math.sin` turns `x` into a plain float (PyTorch warns),
# where `torch.sin` gives a recorded tensor, and NumPy refuses a tensor that requires grad:

# %%
import math

x = torch.tensor(0.5, requires_grad=True)
with shows_warning():
    s = math.sin(x)
print("math.sin(x) is a", type(s).__name__, "with no grad_fn: the graph stops there")
print("torch.sin(x) is made by", type(torch.sin(x).grad_fn).__name__)
with shows_error(RuntimeError):
    x.numpy()

# %% [markdown]
# ### Exercise: a function with a recorded graph
#
# Complete `build_f(x)`. `x` is a leaf that requires grad: float32 or float64, of any shape (a
# single number included), with values of either sign between 0.5 and 2 in size. Return,
# elementwise (a tensor of `x`'s shape and dtype),
#
# $$f(x) = \log(x^2)\,\sin(x) + \frac{1}{x}$$
#
# built from `x` itself, so that its graph leads back to `x`. Do not call `backward()`: the check
# walks the graph you recorded, then compares the value and the gradient with PyTorch's.

# %% solution build_f
def build_f(x):
    """f(x) = log(x**2) * sin(x) + 1/x, recorded in a graph that ends at x."""
    ### BEGIN SOLUTION
    return torch.log(x**2) * torch.sin(x) + 1 / x
    ### END SOLUTION

# %% check build_f points=2

# %% [markdown]
# Once your `build_f` passes, here is the graph it records. Each term is its own branch, and all
# branches meet at the one leaf `x`. PyTorch computes `1 / x` as `x.reciprocal()` times 1, so
# that term shows up as a `MulBackward0` above a `ReciprocalBackward0`:

# %%
x = torch.tensor([0.5, 2.0], requires_grad=True)
picture = None
try:
    picture = draw_graph(build_f(x), names={"x": x}, title="The graph of f(x) = log(x²) sin(x) + 1/x")
except NotImplementedError:
    print("Complete build_f above first, then run this cell again.")
picture

# %% [markdown]
# Autograd walks that graph backwards to get $f'(x)$ at every point at once. `plot_gradient` shows
# $f$ with its tangent at $x = 1.5$ above the derivative autograd computes: the tangent's slope
# is the height of the lower curve at the same $x$. (To get $f'$ it calls `torch.autograd.grad`,
# which lesson 2 teaches; here you only read the picture.)

# %%
picture = None
try:
    picture = plot_gradient(build_f, 0.6, 4.0, at=1.5)
except NotImplementedError:
    print("Complete build_f above first, then run this cell again.")
picture

# %% [markdown]
# ## 6. A value used twice is one node
#
# Graphs are not always chains. In `h * h + h`, the result `h` feeds the multiplication twice and
# the addition once, but it is still one node. During backward its three gradient contributions
# are added up. `draw_graph` shows it: the output on top, leaves at the bottom, arrows in the
# direction gradients flow (×2 marks the double arrow).

# %%
x = torch.tensor([0.5, 1.5], requires_grad=True)
h = torch.exp(x)
y = (h * h + h).sum()
draw_graph(y, names={"x": x, "h": h, "y": y})

# %% [markdown]
# A walk that follows every arrow without remembering where it has been reaches `h` three times,
# and everything below `h` too. `graph_text` remembers: it numbers each node once (`#0` the
# output, then level by level) and writes "(shown above)" instead of repeating a node:

# %%
print(graph_text(y, names={"x": x, "h": h}))

# %% [markdown]
# A preview of lesson 2: `backward()` walks these nodes from the output down, and each
# `AccumulateGrad` adds what arrives into its leaf's `.grad`. Move the slider to step through the
# walk on a small graph with two leaves, `p` and `q`: the gradient arriving at each node, the sum
# where the two paths from `p` meet, and the value landing in each `.grad`.

# %%
p = torch.tensor(2.0, requires_grad=True)
q = torch.tensor(3.0, requires_grad=True)
r = p * q + torch.sin(p)
backward_steps(r, names={"p": p, "q": q, "r": r}, title="r = p*q + sin(p)")   # runs r.backward()

# %% [markdown]
# ### Exercise: count the distinct nodes
#
# Complete `count_nodes(y)` to return how many distinct backward nodes the graph behind `y` has,
# `AccumulateGrad` nodes included. For the `y` made of `h * h + h` above the answer is 5. The
# check builds random graphs in which results are shared along several paths, and switches off
# `graph_text`, `draw_graph` and `backward_steps`, which walk the graph for you.

# %% solution count_nodes
def count_nodes(y):
    """The number of distinct nodes reachable from y.grad_fn, AccumulateGrad included."""
    ### BEGIN SOLUTION
    seen = set()
    stack = [y.grad_fn]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        stack.extend(n for n, _ in node.next_functions)
    return len(seen)
    ### END SOLUTION

# %% check count_nodes points=2

# %% [markdown]
# ## 7. What requires grad: `detach()` and `nn.Parameter`
#
# `t.detach()` returns a new leaf that shares the same storage (no copy) and has no history. It
# does not require grad, so a result computed from it is a constant as far as autograd knows, and
# the graph stops there.
#
# Compare two versions of one computation. Without `detach()`, `scale = x.mean()` is recorded:
# the multiplication sends gradient back to `x` along two paths, directly and through `scale`'s
# `MeanBackward0`.

# %%
x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
scale = x.mean()
y = (x * scale).sum()
draw_graph(y, names={"x": x, "y": y, "scale": scale}, title="scale = x.mean(): two paths lead to x")

# %% [markdown]
# With `x.detach().mean()`, `scale` is a leaf that does not require grad. Its path is gone from
# the graph: the multiplication's second input is a constant, so it does not appear, and only one
# arrow reaches `x`.

# %%
scale = x.detach().mean()
y = (x * scale).sum()
print("scale: requires_grad =", scale.requires_grad, "| is_leaf =", scale.is_leaf)
draw_graph(y, names={"x": x, "y": y}, title="scale = x.detach().mean(): one path to x, scale is not in the graph")

# %% [markdown]
# The weights of a model are `nn.Parameter`s: leaves that always require grad, whatever the
# floating-point tensor you wrap, unless you pass `requires_grad=False`. That is why, in lesson 2,
# `backward()` on a loss will fill every layer's `.grad`.

# %%
weight = nn.Parameter(torch.zeros(2, 3))
print("requires_grad:", weight.requires_grad, "| is_leaf:", weight.is_leaf)
layer = nn.Linear(3, 2)
print([(name, p.requires_grad) for name, p in layer.named_parameters()])

# %% [markdown]
# One more rule: `requires_grad` is a setting of leaves. A result requires grad because one of
# its inputs does; switching that off would silently cut the graph, so PyTorch does not let you:

# %%
x = torch.tensor([1.0, 2.0], requires_grad=True)
y = x * 3
with shows_error(RuntimeError):
    y.requires_grad = False

# %%
ask("sum_with_a_constant")

# %% [markdown]
# ### Exercise: predict the flags
#
# `a` and `b` are float32 leaves; `a_requires` and `b_requires` say whether each requires grad.
# Complete `predict_flags(a_requires, b_requires)` to return a dict mapping each of
# `"a * b"`, `"a.detach()"`, `"a.double()"`, `"a + b.detach()"` and `"nn.Parameter(b)"` to the
# pair `(requires_grad, is_leaf)` of that expression. Use the rules, not tensors: while your code
# runs, the check blocks every tensor operation, even making a tensor. Afterwards it builds the
# real tensors for every combination of flags and compares the whole table.

# %% solution predict_flags
def predict_flags(a_requires, b_requires):
    """{expression: (requires_grad, is_leaf)} for the five expressions above."""
    ### BEGIN SOLUTION
    either = a_requires or b_requires
    return {
        "a * b": (either, not either),
        "a.detach()": (False, True),
        "a.double()": (a_requires, not a_requires),
        "a + b.detach()": (a_requires, not a_requires),
        "nn.Parameter(b)": (True, True),
    }
    ### END SOLUTION

# %% check predict_flags points=2

# %% [markdown]
# ## 8. Loops in a forward pass
#
# Section 4 showed an `if`. A `for` loop simply records one node per pass. Here $x^3$ is built
# as two multiplications:

# %%
def power(x, n):
    out = x
    for _ in range(n - 1):
        out = out * x
    return out

x = torch.tensor(2.0, requires_grad=True)
print(graph_text(power(x, 3), names={"x": x}))

# %% [markdown]
# ### Written answer
#
# **Why can a forward pass use ordinary Python `if` statements and loops?** Explain in two or
# three sentences, using what autograd records and when, and say what happens to a branch that
# was not taken. Write it in the cell below. It has no self-check: your instructor grades it by
# hand.

# %% [markdown] answer dynamic_graph points=2
# Autograd does not analyse the code: it records each operation as it actually runs, and every
# forward pass builds a new graph from scratch. An `if` or a loop only decides which operations
# run, so the graph holds exactly the path taken on this input, with one node per loop pass.
# A branch that was not taken records nothing, so no gradient flows through it on that pass.

# %% [markdown]
# ## 9. A leaf from any data
#
# Section 2 made a leaf from a list. Code is often handed a tensor instead: an integer one, a
# result with a `grad_fn`, or a leaf that already requires grad. An integer tensor cannot require
# grad at all (an integer cannot change by a little); a float dtype chosen when you create it fixes
# that:

# %%
with shows_error(RuntimeError):
    counts = torch.tensor([1, 2, 3], requires_grad=True)
counts = torch.tensor([1, 2, 3], dtype=torch.float64, requires_grad=True)
print(counts.dtype, "| is_leaf:", counts.is_leaf)

# %% [markdown]
# Section 2 showed that a conversion after `requires_grad` gives a result. Here is what that does
# to the gradient. `x.sum().backward()` (lesson 2) computes the gradient of the sum and stores it
# in the `.grad` of the *leaves*. The leaf below is the float32 tensor, which nobody kept a name
# for. `x.grad` stays `None`, and PyTorch warns when you read it:

# %%
torch.manual_seed(0)
x = torch.rand(3, requires_grad=True).double()
x.sum().backward()
with shows_warning():
    print("x.grad is", x.grad)

# %% [markdown]
# Choose the dtype first, then ask for gradients, and `x` is a leaf again:

# %%
torch.manual_seed(0)
x = torch.rand(3, dtype=torch.float64, requires_grad=True)
x.sum().backward()
print("is_leaf:", x.is_leaf, "| x.grad:", x.grad)

# %%
ask("grad_of_a_copy")

# %% [markdown]
# ### Exercise: a float64 leaf from any data
#
# Complete `make_leaf(data)`. `data` is a list of numbers (maybe empty) or a tensor of any dtype
# but complex (bool and integers included) and any shape (0-d included); it may even be a result
# with a `grad_fn`, or a leaf that requires grad. Return a **new** float64 tensor with the same
# values and shape that requires grad and is a leaf. It must not share memory with a tensor you
# were given, nor change what you were given (a list's items; a tensor's values, dtype,
# `requires_grad` or `grad_fn`).
#
# Tip: `detach()` alone shares the storage (section 7); `t.detach().clone()` gives an independent
# copy without history. `torch.tensor(t)` of a tensor `t` makes the same copy, and PyTorch warns
# that `t.detach().clone()` is the way to write it.

# %% solution make_leaf
def make_leaf(data):
    """A new float64 leaf tensor with data's values, requiring grad."""
    ### BEGIN SOLUTION
    x = torch.as_tensor(data, dtype=torch.float64)
    return x.detach().clone().requires_grad_(True)
    ### END SOLUTION

# %% check make_leaf points=1

# %% [markdown]
# ## Summary
#
# The core:
#
# - Operations are recorded only when some input requires grad; the result then requires grad too.
# - Leaves have `grad_fn is None`: tensors you create, and every tensor that does not require
#   grad. Results have a `grad_fn`. Only leaves get `.grad`, so give the dtype when you create the
#   tensor, not after `requires_grad`. Only floating-point (and complex) tensors can require grad.
# - `grad_fn.next_functions` leads from the output down to the `AccumulateGrad` node of each leaf
#   that requires grad.
# - The graph is rebuilt on every forward pass, so Python control flow is fine.
#
# Going further:
#
# - A shared result is one node, reached along several paths; its contributions add up.
# - Only torch operations on tensors are recorded (no `math.*`, `float()` or NumPy).
# - `detach()` makes a new leaf with no history that shares its storage; `nn.Parameter` always
#   requires grad (unless you pass `requires_grad=False`); only leaves can change their
#   `requires_grad`.
# - A new leaf from any data: settle the dtype and make a copy (`detach().clone()`) first, switch
#   `requires_grad` on last, and leave the caller's tensor as it was.
#
# Next, lesson 2: walking the graph backwards with `backward()`.

# %% [markdown]
# ## Where am I
#
# Run this cell at any time: it runs each exercise's check quietly on your own functions and
# lists which pass, which fail (with the first sentence of why) and which you have not
# attempted yet, the core first. The written answer of section 8 is listed by its points only:
# your instructor grades it by hand.

# %%
check.progress(globals())
