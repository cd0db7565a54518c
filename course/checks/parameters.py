"""A model's parameters as the checks see them: named the way a student reaches them, their ``.grad``
copied, whether they are still the objects the optimizer holds, and the mistakes said about them."""
import torch
from torch import nn

from .mistakes import Mistake


def layer_names(model: nn.Sequential) -> dict[str, torch.Tensor]:
    """``model[2].weight`` -> the tensor: names a learner can paste back into the notebook."""
    return {f"model[{i}].{name}": p for i, layer in enumerate(model) for name, p in layer.named_parameters()}


def as_attribute(name: str) -> str:
    """'0.weight' -> 'model[0].weight': a parameter named the way the student would reach it."""
    index, dot, rest = name.partition(".")
    return f"model[{index}].{rest}" if dot and index.isdigit() else f"model.{name}"


def values_changed(names: dict[str, torch.Tensor], before: list[torch.Tensor]) -> list[str]:
    return [n for (n, p), old in zip(names.items(), before) if not torch.equal(p.detach(), old)]


def grads_of(params) -> list:
    return [None if p.grad is None else p.grad.detach().clone() for p in params]


def replaced(before: list, after: list) -> bool:
    """True when the model now holds other Parameter objects than it did (identity, not values)."""
    return len(before) != len(after) or any(a is not b for a, b in zip(before, after))


def no_gradient(grad) -> bool:
    return grad is None or not bool(grad.detach().any())


def params_replaced(where: str) -> Mistake:
    return Mistake(f"the model's parameters are new Parameter objects after {where}: the optimizer still "
                   "holds the old ones, so step() updates tensors the model no longer uses. Change a "
                   "parameter's values in place (under torch.no_grad()), never assign a new nn.Parameter "
                   "once the optimizer is built.", "params_replaced")


def none_grad_judged(error: Exception, where: str) -> None:
    """An answer that used a None .grad as a tensor: say that it was None, and why a .grad is None."""
    if isinstance(error, (TypeError, AttributeError)) and "NoneType" in str(error):
        raise Mistake(f"your code used a .grad that is None as a tensor ({type(error).__name__}: "
                      f"{str(error)[:120]}): {where} is None, because no backward() has reached that "
                      "parameter yet (it is frozen, or the loss did not use it). Skip parameters whose .grad is "
                      "None.", "grad_none_not_skipped")
