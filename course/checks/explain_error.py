"""Turn PyTorch's own autograd errors into a sentence about what the code did wrong.

The original message is always kept: students should learn to read PyTorch's words too.
"""

# (fragment of PyTorch's message, what it means for the learner)
KNOWN_ERRORS = [
    ("backward through the graph a second time",
     "the first backward() freed the graph; pass retain_graph=True to every call but the last, "
     "or rebuild the graph with a new forward pass."),
    ("grad can be implicitly created only for scalar outputs",
     "backward() without arguments needs a scalar: reduce with .sum(), or pass gradient=v."),
    ("does not require grad and does not have a grad_fn",
     "this tensor is not part of any graph: was it made under no_grad(), detached, or created "
     "without requires_grad=True?"),
    ("a leaf Variable that requires grad is being used in an in-place operation",
     "in-place updates of parameters belong inside `with torch.no_grad():`."),
    ("Can't call numpy() on Tensor that requires grad",
     "call .detach() first: NumPy cannot carry the graph."),
    ("Only Tensors of floating point and complex dtype can require gradients",
     "make the tensor floating point (e.g. dtype=torch.float64) before asking for gradients."),
    ("you can only change requires_grad flags of leaf variables",
     "requires_grad can only be set on leaves; detach() the result to make a new leaf."),
    ("Inference tensors cannot be saved for backward",
     "a tensor made under inference_mode() can never join a graph; use no_grad() or clone it outside."),
    ("Inplace update to inference tensor outside InferenceMode",
     "tensors made under inference_mode() stay read-only outside it; clone() them to get a normal tensor."),
    ("modified by an inplace operation",
     "a tensor that backward() needs was changed in place after the forward pass; use an "
     "out-of-place operation (x = x + 1, not x += 1)."),
    ("One of the differentiated Tensors appears to not have been used in the graph",
     "the output does not depend on that input; pass allow_unused=True or check the inputs."),
    # math.sin(x), float(x) or a numpy function given a tensor of several elements.
    ("only one element tensors can be converted to Python scalars",
     "a function for plain Python numbers (math.sin, math.exp, float()) was given a tensor. Use the "
     "torch function instead (torch.sin, torch.exp): it works elementwise, and autograd records it, "
     "while math.* returns a plain float with no graph."),
]

# A .grad that is None (never reached by backward(), frozen, or reset by zero_grad(), whose
# set_to_none=True is the default) surfaces as one of these plain Python/PyTorch errors.
_GRAD_IS_NONE = ("a tensor was None here. If it was a .grad: it is None until backward() reaches "
                 "the tensor, for frozen or unused parameters, and after zero_grad() (set_to_none=True "
                 "is the default). Skip those with `if p.grad is not None`.")
KNOWN_ERRORS += [(fragment, _GRAD_IS_NONE) for fragment in (
    "must be Tensor, not NoneType",
    "'NoneType' object has no attribute 'zero_'",
    "'NoneType' and 'Tensor'",
    "'NoneType' object is not subscriptable",
)]


def explain_error(error: BaseException) -> str:
    """``TypeError: ...`` plus, for a known autograd error, what it means."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    said = f"{type(error).__name__}: {text}" if text else type(error).__name__
    for fragment, meaning in KNOWN_ERRORS:
        if fragment in str(error):
            return f"{said}\n  In autograd terms: {meaning}"
    return said
