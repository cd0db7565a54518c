"""Lesson 2's quick checks (not graded): each option that is wrong says why, and the lesson's
cells ask them by name."""
from ..visuals.quick_check import asker

QUESTIONS = {
    "which_backward_call": dict(
        question="y = x * 2 for a tensor x of shape (3,) with requires_grad=True. Which call works?",
        options=[("y.backward()", "y has three elements: backward() without arguments needs a scalar (or gradient=)."),
         "y.sum().backward()",
         ("y[0].grad", "reading .grad runs nothing: it is None until a backward() has run."),
         ("x.backward()", "x is a vector too, and it is the input: backward() starts from the output you "
                          "want the gradient of.")],
        answer_index=1,
        explanation="y.sum() is a scalar, so backward() can start from it; it computes the gradient of the sum, "
        "which here puts 2 in every entry of x.grad.",
    ),
    "backward_twice": dict(
        question="x is a leaf that requires grad, and loss is computed from it. You call "
        "loss.backward(retain_graph=True) and then loss.backward() again on the same graph. "
        "What does x.grad hold?",
        options=[("the gradient once", "backward() adds into .grad: it does not overwrite what the first call left."),
         "twice the gradient",
         ("None", "both calls reach x, a leaf that requires grad, so .grad is set."),
         ("an error is raised", "retain_graph=True kept the graph for the second call: only a call after "
                                "the last retained one can find it freed.")],
        answer_index=1,
        explanation="retain_graph=True keeps the graph so the second call works, and backward() adds into .grad: "
        "two calls, twice the gradient.",
    ),
}

ask = asker(QUESTIONS)
