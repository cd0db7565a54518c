"""Where an answer evaluated the function it was given: at x, just beside x (a finite difference, which
estimates a derivative instead of letting autograd compute it), or far from x (a tensor kept from an
earlier call); and the mistakes named for each."""
import torch

from .mistakes import Mistake


class WhereEvaluated:
    """f as the answer gets it, noting where it was evaluated: at x, just beside x, or somewhere else.

    An answer that evaluates f at shifted points, (f(x + h) - f(x - h)) / 2h, gets the numbers right
    without autograd: the exercise's rule ("with backward()") is broken even though the values pass.
    Points far from x are no finite difference: a tensor kept from an earlier call, say, which the
    judge names only when the result is wrong.
    """

    def __init__(self, f, x: torch.Tensor):
        self.f, self.x, self.elsewhere, self.far, self.given = f, x.detach().clone(), False, False, []
        self.stale = False  # f got a leaf whose .grad already held a gradient: backward() will add to it
        self.outputs = []  # what f returned, to tell its value returned in place of a gradient

    def __call__(self, t, *args, **kwargs):
        if not isinstance(t, torch.Tensor) or t.is_complex():
            self.elsewhere = True  # a complex step, or something that is not a tensor at all
        elif t.numel() != self.x.numel():
            self.far = True
        elif not self._same_points(t.reshape(self.x.shape)):  # x reshaped is still x
            if self._beside(t.reshape(self.x.shape)):
                self.elsewhere = True
            else:
                self.far = True
        if isinstance(t, torch.Tensor):
            self.stale |= bool(t.is_leaf and t.requires_grad and t.grad is not None)
            self.given.append(t)
        out = self.f(t, *args, **kwargs)
        self.outputs.append(out)
        return out

    def returned_value(self, got) -> bool:
        """Whether the answer returned f's value itself (or a copy of it) where a gradient was asked for."""
        return isinstance(got, torch.Tensor) and any(
            got is out or (isinstance(out, torch.Tensor) and got.shape == out.shape and got.dtype == out.dtype
                           and torch.equal(got.detach(), out.detach())) for out in self.outputs)

    def _same_points(self, t: torch.Tensor) -> bool:
        return torch.equal(t.detach().to(self.x.dtype), self.x) or self._converted(t)

    def _beside(self, t: torch.Tensor) -> bool:
        """Within a step of x: what a finite difference evaluates (x itself is excluded before)."""
        if not t.is_floating_point():
            return False
        x = self.x.to(t.dtype)
        return bool(((t.detach() - x).abs() <= 0.05 * (1 + x.abs())).all())

    def _converted(self, t: torch.Tensor) -> bool:
        """x itself in another floating dtype (a copy through .tolist(), say): the judge names the dtype."""
        return t.is_floating_point() and t.dtype != self.x.dtype and torch.equal(t.detach(), self.x.to(t.dtype))

    def grad_filled(self) -> bool:
        """Whether backward() filled the .grad of a leaf f was called on (the answer's copy of x)."""
        return any(t.is_leaf and t.grad is not None for t in self.given)

    def no_graph(self, given_x: torch.Tensor, call: str = "backward()",
                 then: str = "read that copy's .grad") -> str | None:
        """Why backward() found no graph, when f was only ever called on tensors that do not require grad.

        PyTorch's error says only that some tensor has no grad_fn; which tensor f got tells the slip:
        the caller's own x (the copy was made but not used), or a copy that never required grad.
        """
        if not self.given or any(t.requires_grad for t in self.given):
            return None
        if any(t is given_x for t in self.given):
            return (f"{call} found no graph: f was called on the x you were given, which does not require "
                    f"grad. Call f on a copy of x that requires grad, and {then}.")
        return (f"{call} found no graph: f was called on a tensor that does not require grad (a copy made "
                "without .requires_grad_(True), or a .detach() or .data of one). Call f on a copy of x that "
                "requires grad.")


FINITE_DIFFERENCE = ("your answer evaluates f at points other than x, as a finite difference "
                     "(f(x + h) - f(x - h)) / 2h does: that estimates {what} instead of letting autograd "
                     "compute it. {how}")


def finite_difference(seen, what: str, how: str) -> None:
    if any(seen["evaluated_elsewhere"]):
        raise Mistake(FINITE_DIFFERENCE.format(what=what, how=how), "finite_difference")


FAR_FROM_X = ("f was called on a tensor that is not the x of this call (other values, or another shape): one "
              "kept from an earlier call, or x changed before f saw it? f's derivative is wanted at x itself. {how}")


def far_from_x(seen, index: int, wrong, how: str) -> None:
    """A wrong result from f evaluated far from x: said only when wrong, since f may be called for other reasons."""
    if wrong and seen["evaluated_far"][index]:
        raise Mistake(FAR_FROM_X.format(how=how), "f_not_at_x")


def used_as_a_tensor(error: Exception) -> Mistake | None:
    """f itself used where a tensor belongs (f.backward(), f * x, torch.autograd.backward(f)): Python's message
    names the check's wrapper around f, so say it in the student's terms."""
    if not isinstance(error, (AttributeError, TypeError)) or "WhereEvaluated" not in str(error):
        return None
    said = str(error).replace("'WhereEvaluated' object", "the function f").replace("'WhereEvaluated'", "function")
    return Mistake(f"your code used f, the function you were given, as if it were a tensor ({type(error).__name__}: "
                   f"{said}). Call f on the copy of x first, y = f(copy), then differentiate y.", "f_used_as_tensor")
