"""An answer's walk of a graph that went wrong, said in autograd terms: which node it stood on, and a
constant's ``None`` taken for a node; and the course helpers that would walk the graph for it."""
import contextlib

import torch

from .explain_error import explain_error
from .mistakes import Mistake


# The course helpers that walk a graph for the student (each refuses under its own name, so the message
# names what the answer called), switched off while grad_fn_names and count_nodes are checked.
WALKS_THE_GRAPH = ("graph_text", "draw_graph", "backward_steps", "walk_graph")


def _nodes_where_raised(error: BaseException) -> list:
    """The backward nodes held by the innermost frame of the answer's traceback that holds any: the node
    the walk was standing on when it went wrong."""
    frames = []
    tb = error.__traceback__
    while tb is not None:
        frames.append(tb.tb_frame)
        tb = tb.tb_next
    for frame in reversed(frames):
        nodes = [v for v in frame.f_locals.values()
                 if not isinstance(v, torch.Tensor) and isinstance(getattr(v, "next_functions", None), tuple)]
        if nodes:
            return nodes
    return []


# What a node has that None has not: only these errors mean a walk used a constant's None as a node
# (None.append, from names = names.append(...), is a mistake of another kind, said as raised).
_NODE_ATTRIBUTES = ("next_functions", "name", "variable", "metadata", "register_hook", "__name__")


def _used_none_as_node(message: str) -> bool:
    if message == "'NoneType' object is not subscriptable":
        return True
    return any(message == f"'NoneType' object has no attribute '{attr}'" for attr in _NODE_ATTRIBUTES)


@contextlib.contextmanager
def walk_errors_explained(about_none: str):
    """The plain Python errors a walk of next_functions runs into, said in autograd terms: indexing the
    empty next_functions of AccumulateGrad (the likeliest first walk), a pair a node does not have, and a
    constant's None used as a node (``about_none`` says what to do about it in this exercise)."""
    try:
        yield
    except IndexError as error:
        if "tuple index out of range" not in str(error):
            raise
        nodes = _nodes_where_raised(error)
        if not nodes or any(n.next_functions == () for n in nodes):
            meaning = ("AccumulateGrad is the last node: its next_functions is empty, so there is no pair to "
                       "step to. Stop after recording it.")
            kind = "past_accumulate_grad"
        else:
            meaning = ("your walk asked a node for a pair it does not have: next_functions holds one pair per "
                       "input of the operation (one for sin or sum, two for *).")
            kind = "missing_pair"
        raise Mistake(f"your code raised {explain_error(error)}\n  In autograd terms: {meaning}", kind) from None
    except (AttributeError, TypeError) as error:
        if not _used_none_as_node(str(error)):
            raise
        said = f"{type(error).__name__}: {str(error).splitlines()[0]}"  # the walk's own meaning follows
        raise Mistake(f"your code raised {said}\n  In autograd terms: your walk stepped onto "
                      "a None entry of next_functions and used it as a node. An input that does not require "
                      f"grad (a constant) shows up as (None, 0), and {about_none}", "stepped_on_none") from None
