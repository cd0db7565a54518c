"""Lesson 3's quick checks (not graded): each option that is wrong says why, and the lesson's
cells ask them by name."""
from ..visuals.quick_check import asker

QUESTIONS = {
    "result_of_no_grad_later": dict(
        question="Inside `with torch.no_grad():` you compute `z = x * 2` from a leaf `x` that requires grad. After "
        "the block, `u = z * 3`. Does `u` have a grad_fn?",
        options=[("Yes: recording is back on after the block",
                  "recording is on again, but it records an operation only when an input requires grad, and u's "
                  "only input z does not: nothing is recorded."),
                 "No: z came out of the block without requires_grad, so nothing u is made from requires grad",
                 ("Yes: z was made from x, and x requires grad",
                  "z has no history: the block recorded nothing, so no graph links z back to x. To autograd z is "
                  "a constant, like any tensor made without requires_grad.")],
        answer_index=1,
        explanation="no_grad() changes the recorder, not the tensors: x keeps requires_grad=True, but z is made "
        "without a grad_fn or requires_grad, and stays a constant after the block.",
    ),
    "detach_shares_memory": dict(
        question="After `d = x.detach()` you run `d.mul_(2)`. What happens to x?",
        options=[("Nothing: d is a copy", "detach() makes a new tensor object, not new memory: d and x share one "
                                  "storage, so a change to d's values is a change to x's. detach().clone() "
                                  "would be a copy."),
         "x's values are doubled too: d shares x's storage",
         ("PyTorch raises an error, because x requires grad",
          "d does not require grad, so autograd has nothing to refuse: changing it in place is allowed (and "
          "silently changes x too). Only changing x itself while recording is refused.")],
        answer_index=1,
        explanation="detach() returns a new tensor object over the same storage, with no history. Use "
        "detach().clone() when you need values that stay put.",
    ),
    "freeze_first_layer": dict(
        question="You fine-tune a network and want its first layer to stay as it is through all of training. "
        "Which tool fits?",
        options=[("Run the first layer's forward pass inside `torch.no_grad()` at every step",
          "it works only as long as every forward pass remembers to do it; the parameters still require grad, "
          "so any forward pass outside the block trains them. Freezing says it once."),
         "`requires_grad_(False)` on the first layer's parameters, once",
         ("`detach()` the first layer's weight once, before training",
          "detach() returns a new tensor; the model keeps using its own weight, which still requires grad, so "
          "training still updates it.")],
        answer_index=1,
        explanation="Freezing is a property of the parameters: set it once and backward() leaves them out for "
        "as long as it stays off. Hand the optimizer only the parameters that still require grad.",
    ),
    "eval_and_autograd": dict(
        question="You call `model.eval()` and then `loss = loss_fn(model(x), y)`. What does autograd do?",
        options=[("Nothing: eval() switches recording off",
          "eval() sets module.training, which only Dropout, BatchNorm and the like read; autograd never looks "
          "at it. The loss has a grad_fn, as the example above shows."),
         "It records the graph as usual",
         ("It records, but loss.backward() refuses to run",
          "a graph recorded in eval mode is an ordinary graph: backward() runs through it (that is how some "
          "fine-tuning trains with BatchNorm statistics fixed).")],
        answer_index=1,
        explanation="eval() only changes how layers such as Dropout and BatchNorm compute. The graph is recorded "
        "(and kept in memory) unless you also use no_grad() or inference_mode().",
    ),
}

ask = asker(QUESTIONS)
