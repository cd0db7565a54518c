"""Lesson 2's quick checks (not graded): each option that is wrong says why, and the lesson's
cells ask them by name."""
from ..visuals.quick_check import asker

QUESTIONS = {
    "which_backward_call": dict(
        question="y = x * 2 for a tensor x of shape (3,) with requires_grad=True. Which call works?",
        options=[("y.backward()", "y has three elements: backward() without arguments needs a scalar output."),
         "y.sum().backward()",
         ("y[0].grad", "reading .grad computes nothing: only a backward() call fills gradients."),
         ("x.backward()", "x is a vector too, and it is the input: backward() starts from the output you "
                          "want the gradient of.")],
        answer_index=1,
        explanation="y.sum() is a scalar, so backward() can start from it; it computes the gradient of the sum, "
        "which here puts 2 in every entry of x.grad.",
    ),
    "backward_twice": dict(
        question="x is a leaf that requires grad. For which y does calling y.backward() twice, without "
        "retain_graph=True, raise an error?",
        options=[("y = (x + x).sum()", "additions and sums save no tensors: nothing is freed, so the second call "
                                       "runs and silently adds the gradient again."),
         "y = (x * x).sum()",
         ("y = (x + 1).sum()", "adding a constant passes the gradient on unchanged and saves nothing: the second "
                               "call runs and doubles .grad."),
         ("all three", "only a node that saved a value for the backward pass can find it freed, and additions "
                       "and sums save none.")],
        answer_index=1,
        explanation="x * x saved x for the backward pass (the gradient of each factor is the other factor); "
        "the first backward() freed it, so the second raises. The other two save nothing: their second call "
        "runs without an error and adds the gradient again.",
    ),
}

ask = asker(QUESTIONS)
