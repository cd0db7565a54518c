"""Lesson 4's quick checks (not graded): each option that is wrong says why, and the lesson's
cells ask them by name."""
from ..visuals.quick_check import asker

QUESTIONS = {
    "two_backwards_add_up": dict(
        question="x = torch.tensor(2.0, requires_grad=True). You run (x * x + x).backward() twice, "
        "with a new forward pass each time. What is x.grad?",
        options=[("5", "5 is what one call leaves, the derivative 2x + 1 at x = 2. The second call adds its 5 on top: "
               "backward() adds into .grad, it never overwrites it."),
         "10",
         ("4", "4 is what one call's x * x part gives (2x at x = 2); the '+ x' adds 1 to it, and the second call adds it all again."),
         ("None: the second call replaces the first",
          "a new forward pass builds a new graph, but .grad belongs to the leaf x, which both graphs share: "
          "the second backward() adds to what the first left there.")],
        answer_index=1,
        explanation="Each call adds the derivative 2x + 1 = 5, and nothing reset .grad in between: 5 + 5 = 10.",
    ),
    "after_zero_grad": dict(
        question="After optimizer.zero_grad() with its default arguments, what is p.grad for a parameter p?",
        options=[("a tensor of zeros", "zeros are what zero_grad(set_to_none=False) leaves (and the default before "
                               "PyTorch 2.0); today's default drops the tensor, so p.grad is None."),
         "None",
         ("unchanged until step() runs", "zero_grad() acts at once, on every parameter the optimizer holds; "
                                         "step() only reads .grad."),
         ("the previous gradient, halved", "nothing in PyTorch halves a gradient: zero_grad() either drops "
                                           ".grad or fills it with zeros.")],
        answer_index=1,
        explanation="set_to_none=True is the default: the gradient tensors are dropped, and the next backward() "
        "stores new ones.",
    ),
    "wrong_step_order": dict(
        question="Which of these orders of one training step is wrong?",
        options=[("zero_grad(), forward, backward(), step()",
          "the usual order: the reset clears the last step's gradient before backward() adds the new one."),
         ("forward, backward(), step(), zero_grad()",
          "in a loop where every step ends so, the next step's backward() starts from None just the same: "
          "fine (only the very first step relies on .grad starting empty)."),
         "forward, backward(), zero_grad(), step()",
         ("forward, zero_grad(), backward(), step()",
          "the forward pass does not touch .grad, so resetting after it and before backward() is fine.")],
        answer_index=2,
        explanation="zero_grad() between backward() and step() throws away the gradient step() needs. Resetting "
        "after the forward pass but before backward() is fine: the forward pass does not touch .grad.",
    ),
    "hook_runs_each_pass": dict(
        question="x = torch.tensor(1.0, requires_grad=True); x.register_hook(lambda g: g.clamp(-1, 1)). "
        "You run (3 * x).backward() twice, with a new forward pass each time. What is x.grad?",
        options=[("1", "1 would mean the hook clipped the total in .grad; it sees each pass's gradient before it is "
               "added, so two clipped passes add up to 2."),
         "2",
         ("3", "3 is one pass's gradient unclipped: the hook returns the clamped tensor, which replaces it."),
         ("6", "6 is two passes unclipped; the hook returns the clamped gradient, so each pass adds 1.")],
        answer_index=1,
        explanation="The hook clips each pass's gradient (3) to 1 before AccumulateGrad adds it: 1 + 1 = 2.",
    ),
}

ask = asker(QUESTIONS)
