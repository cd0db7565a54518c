"""Lesson 1's quick checks (not graded): each option that is wrong says why, and the lesson's
cells ask them by name."""
from ..visuals.quick_check import asker

QUESTIONS = {
    "grad_of_a_copy": dict(
        question="x = torch.ones(2, requires_grad=True); z = x.to(torch.float64); z.sum().backward(). "
        "Which tensor has a .grad afterwards?",
        options=[("z only", "z was made by an operation on x (x.to is recorded when x requires grad), so z is a "
                    "result, and results keep no .grad."),
         "x only",
         ("both x and z", "only leaves keep .grad, and z has a grad_fn (ToCopyBackward0): it is a result."),
         ("neither", "backward() did reach a leaf: x requires grad and z was computed from it.")],
        answer_index=1,
        explanation="x is the leaf. z was made by a recorded operation (ToCopyBackward0), so it is a result, "
        "and results keep no .grad.",
    ),
    "sum_with_a_constant": dict(
        question="a = torch.ones(2, requires_grad=True); b = torch.ones(2); c = a + b. "
        "What are c.requires_grad and c.is_leaf?",
        options=[("True and True", "a tensor with a grad_fn is never a leaf, and the addition was recorded (a "
                           "requires grad), so c has one."),
         "True and False",
         ("False and True", "one input that requires grad is enough for the result to require grad."),
         ("False and False", "every tensor that does not require grad is a leaf; and here c does require "
                             "grad, since a does.")],
        answer_index=1,
        explanation="a requires grad, so the addition is recorded: c requires grad and has a grad_fn "
        "(AddBackward0), which makes it a result, not a leaf.",
    ),
}

ask = asker(QUESTIONS)
