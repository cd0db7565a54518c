"""Object identity across an answer's calls, made to decide nothing by chance.

Python gives a new object the id of one that was freed. An answer that caches by ``id(x)`` (or keeps
hook handles by ``id(model)``) therefore meets a stale entry only when a new input happens to land
where an old one was: it was accepted in some runs and rejected in others. Three things make the
verdict the same every run:

- every object a check makes or gets back stays alive until the check ends (``kept_alive``), so no
  input of one of its calls takes the id of an earlier one;
- after each call, a dict the answer can reach that is keyed on the identity of one of that call's
  inputs (its id, its data pointer, or the object itself) is found whether or not an entry was ever
  hit (``keyed_on_identity``): the cache is the mistake, not the luck of a hit;
- which tensors checks have had back from an answer, or found among what it keeps after a call,
  is remembered for the kernel's life, weakly (``returned_by_a_call``): one handed back again is a
  cache's old result whichever check first met it, and a tensor the answer held before any check
  met it stays a constant.
"""
import weakref
from contextlib import contextmanager

import torch
from torch import nn

_alive: list | None = None  # what the open check keeps alive
_returned: dict[int, weakref.ref] = {}  # id -> the tensor a check got back from an answer
_constants: dict[int, weakref.ref] = {}  # id -> a tensor an answer held before any check got it back


@contextmanager
def kept_alive():
    """Inside, every object passed to ``keep`` lives on until the outermost such block ends."""
    global _alive
    if _alive is not None:
        yield
        return
    _alive = []
    try:
        yield
    finally:
        _alive = None


def keep(*objects) -> None:
    if _alive is not None:
        _alive.extend(objects)


def _remember(table: dict, t: torch.Tensor) -> None:
    key = id(t)
    try:
        table[key] = weakref.ref(t, lambda _, key=key, table=table: table.pop(key, None))
    except TypeError:  # a tensor type that takes no weak reference: remembered for no longer than the check
        keep(t)


def _in(table: dict, t: torch.Tensor) -> bool:
    ref = table.get(id(t))
    return ref is not None and ref() is t


def returned_by_a_call(t: torch.Tensor) -> bool:
    return _in(_returned, t)


def note_returned(tensors) -> None:
    for t in tensors:
        _remember(_returned, t)


def note_kept(function, constants: list) -> None:
    """After a call, whatever it ran into: the tensors ``function`` can now reach that are not its
    constants were made by a call (a cache's entry, made by a call whose result the check refused, say)."""
    note_returned(t for t in tensors_held_by(function) if not is_constant(t, constants))


def constants_of(function) -> list[torch.Tensor]:
    """The tensors ``function`` holds before this check's first call and no check ever got back from it
    as a result, remembered as its constants from then on."""
    held = [t for t in tensors_held_by(function) if _in(_constants, t) or not returned_by_a_call(t)]
    for t in held:
        _remember(_constants, t)
    return held


def is_constant(t: torch.Tensor, constants: list) -> bool:
    return any(t is c for c in constants)


def reachable(function, depth: int = 3, most: int = 10_000):
    """The values a function can reach before it is called: its globals, closure, defaults and
    attributes, and up to ``depth`` levels into their lists, tuples, dicts and sets. At most ``most``
    values are looked at, so a notebook's worth of globals stays cheap."""
    places = list(getattr(function, "__globals__", {}).values())
    for cell in getattr(function, "__closure__", None) or ():
        try:
            places.append(cell.cell_contents)
        except ValueError:  # a cell not yet filled
            pass
    places += list(getattr(function, "__defaults__", None) or ()) + list(getattr(function, "__dict__", {}).values())
    level = 0
    while places and level <= depth and most > 0:
        inner = []
        for value in places[:most]:
            yield value
            if isinstance(value, dict):
                inner += list(value.values())
            elif isinstance(value, (list, tuple, set, frozenset)):
                inner += list(value)
        most -= len(places)
        places, level = inner, level + 1


def tensors_held_by(function) -> list[torch.Tensor]:
    """The tensors a function can reach before it is called (a constant returned every time is one)."""
    return [value for value in reachable(function) if isinstance(value, torch.Tensor)]


def identities(inputs) -> dict[int, object]:
    """id -> object for every object of a call's inputs an answer may key on (containers, tensors,
    layers, parameters, optimizers), and each tensor's data pointer -> the tensor."""
    found: dict[int, object] = {}
    stack = [inputs]
    while stack:
        value = stack.pop()
        if id(value) in found or isinstance(value, (str, bytes, int, float, bool)) or value is None:
            continue
        found[id(value)] = value
        if isinstance(value, torch.Tensor):
            if value.layout == torch.strided and value.numel():
                found.setdefault(value.data_ptr(), value)
        elif isinstance(value, dict):
            stack += list(value.values())
        elif isinstance(value, (list, tuple)):
            stack += list(value)
        elif isinstance(value, nn.Module):
            stack += list(value.parameters()) + list(value.modules())[1:]
        elif isinstance(value, torch.optim.Optimizer):
            stack += [p for group in value.param_groups for p in group["params"]]
    return found


def keyed_on_identity(function, found: dict[int, object]) -> bool:
    """Whether a dict ``function`` can reach has a key that is one of ``found`` (an object of the call's
    inputs itself), or its id or data pointer, alone or inside a tuple."""
    for value in reachable(function):
        if isinstance(value, dict) and any(_names_one(key, found) for key in list(value)[:10_000]):
            return True
    return False


def _names_one(key, found: dict[int, object]) -> bool:
    if type(key) is int:
        return key in found
    if isinstance(key, tuple):
        return any(_names_one(part, found) for part in key)
    return id(key) in found and found[id(key)] is key


def identity_key_message(name: str) -> str:
    return (f"`{name}` keeps a cache from one call to the next, keyed on the identity of an argument (its id(), "
            "its data_ptr(), or the object itself): an id names an object only while it lives, and Python gives "
            "it to a new object once the old one is freed, so sooner or later such a cache has handed back an "
            "old result for a new argument. Build everything from the arguments on each call.")
