"""`predict_flags(a_requires, b_requires)`: the autograd flags of each expression, predicted without
running it. The expected table reaches students only as seals (``course.checks.observation.Sealed``).
"""
import torch
from torch.utils._python_dispatch import TorchDispatchMode

from ...checks.diagnose import describe_value
from ...checks.mistakes import Mistake
from ...checks.read_back import same_length
from ...exercise import Exercise


# The expressions to predict, and the section that teaches what decides each one: a wrong
# prediction is sent back there (the rule itself would be the answer, which only the grader holds).
FLAG_SECTIONS = {
    "a * b": "sections 1 and 2 (when an operation is recorded, and what makes a tensor a leaf)",
    "a.detach()": "section 7 (what detach() returns)",
    "a.double()": "section 2 (the .double() example: a conversion is an operation too)",
    "a + b.detach()": "sections 1 and 7 (which inputs decide whether an operation is recorded)",
    "nn.Parameter(b)": "section 7 (what nn.Parameter makes)",
}


EXPRESSIONS = list(FLAG_SECTIONS)


FLAG_CASES = [(a, b) for a in (False, True) for b in (False, True)]


def flag_table(cases, pairs: list[dict]) -> list[dict]:
    """A whole prediction as one value, in the trial's case order: the grader seals it whole, so
    what students have says whether a table is right, never which pair is."""
    return [{"a_requires": bool(a), "b_requires": bool(b), "flags": {key: list(p[key]) for key in sorted(p)}}
            for (a, b), p in zip(cases, pairs)]


def without(table: list[dict], key: str, case: int | None = None) -> list[dict]:
    """The table with one expression left out (of every case, or of one case only): its seal tells
    a table wrong in that place alone from one wrong elsewhere, still without saying the answer."""
    return [{**row, "flags": {k: v for k, v in row["flags"].items() if k != key or (case is not None and i != case)}}
            for i, row in enumerate(table)]


class _NoTensorOperations(TorchDispatchMode):
    """Refuse every tensor operation, creation included: torch.tensor, torch.Tensor, from_numpy...

    A dispatch mode sees what reaches PyTorch's kernels, so no spelling of "make a tensor and
    read its flags" gets past it.
    """

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        name = func.overloadpacket.__name__
        # kernels' names are PyTorch's own: torch.tensor(...) reaches them as lift_fresh
        did = ("built a tensor (torch.tensor(...))" if name.startswith("lift_fresh") else
               f"ran a tensor operation (torch.{name})" if hasattr(torch, name) and not name.startswith("_") else
               "ran a tensor operation")
        raise Mistake(f"predict the flags from the rules, without building tensors: your code {did} while "
                      "predicting.", "measured")


def inputs(rng):
    order = torch.randperm(len(FLAG_CASES), generator=rng).tolist()
    return {"cases": [list(FLAG_CASES[i]) for i in order]}


def call(answer, inputs):
    predictions = []
    for a_requires, b_requires in inputs["cases"]:
        with _NoTensorOperations():
            predictions.append(answer(a_requires, b_requires))
    return {"predictions": predictions}


def _pair(prediction: dict, key: str, where: str) -> list:
    pair = prediction[key]
    if isinstance(pair, list) and len(pair) == 2 and all(v in ("True", "False") for v in pair):
        raise Mistake(f"{where}, the value for {key!r} is a pair of strings, {pair!r}: write the bools True and "
                      "False, without quotes.", "not_a_pair")
    if not isinstance(pair, list) or len(pair) != 2 or not all(isinstance(v, bool) for v in pair):
        raise Mistake(f"{where}, the value for {key!r} should be a pair of bools (requires_grad, is_leaf), "
                      f"got {pair!r}.", "not_a_pair")
    return pair


def judge(seen, expected, inputs):
    cases = inputs["cases"]
    sent = same_length(seen["predictions"], cases, "predictions")
    pairs = []
    for (a_requires, b_requires), prediction in zip(cases, sent):
        where = f"for a_requires={a_requires}, b_requires={b_requires}"
        if not isinstance(prediction, dict):
            raise Mistake(f"return a dict with exactly the keys {EXPRESSIONS}; got {describe_value(prediction)} "
                          f"{where}.", "wrong_keys")
        if set(prediction) != set(EXPRESSIONS):
            missing = [key for key in EXPRESSIONS if key not in prediction]
            extra = sorted(map(repr, set(prediction) - set(EXPRESSIONS)))
            raise Mistake("return a dict with exactly the keys of the five expressions, written as the "
                          f"exercise writes them (spaces included): missing {', '.join(map(repr, missing))}"
                          f"{'; not expected ' + ', '.join(extra) if extra else ''}.", "wrong_keys")
        pairs.append({key: _pair(prediction, key, where) for key in EXPRESSIONS})
    table = flag_table(cases, pairs)
    if expected["table"].matches(table):
        return
    if expected["table"].matches(flag_table(cases, [{k: v[::-1] for k, v in p.items()} for p in pairs])):
        raise Mistake("each of your pairs is in the wrong order: give (requires_grad, is_leaf), requires_grad "
                      "first.", "pair_swapped")
    by_case = {(bool(a), bool(b)): p for (a, b), p in zip(cases, pairs)}
    if expected["table"].matches(flag_table(cases, [by_case[(bool(b), bool(a))] for a, b in cases])):
        raise Mistake("your table is right for the flags read the other way round: your function takes its "
                      "arguments in the other order. It is called as predict_flags(a_requires, b_requires): "
                      "a's flag first, then b's.", "arguments_swapped")
    for key in EXPRESSIONS:
        for i, (a_requires, b_requires) in enumerate(cases):
            if expected["one_pair"][key][i].matches(without(table, key, i)):
                said = pairs[i][key]
                raise Mistake(f"your prediction for `{key}` is wrong for a_requires={a_requires}, "
                              f"b_requires={b_requires} (the rest of your table is right): you said "
                              f"requires_grad={said[0]}, is_leaf={said[1]}. Ask whether an operation was "
                              f"recorded there: what decides it is in {FLAG_SECTIONS[key]}.", "wrong_prediction")
        if expected["one_expression"][key].matches(without(table, key)):
            raise Mistake(f"your predictions for `{key}` are wrong (the other four expressions are right): work "
                          f"out its requires_grad for each case first, then is_leaf. What decides them is in "
                          f"{FLAG_SECTIONS[key]}.", "wrong_prediction")
    raise Mistake("your predictions are wrong for more than one expression (once only one is wrong, the check "
                  "names it: it cannot tell which without saying the answer). Take one expression at a time: was "
                  "an operation recorded (only if some input requires grad)? Then is_leaf follows (a leaf has "
                  "no grad_fn). detach() and nn.Parameter each make a new leaf: section 7 says what each does to "
                  "requires_grad.", "wrong_prediction")


HINTS = [
    "Two rules decide most of it: a result requires grad if any input does, and a tensor is a leaf "
    "exactly when it has no grad_fn (nothing recorded it).",
    "For each expression ask: was an operation recorded? Only when some input requires grad. detach() "
    "and nn.Parameter are different: each makes a new leaf, and section 7 says what each does to "
    "requires_grad.",
    "Write each expression's requires_grad in terms of a_requires and b_requires first (some ignore both); "
    "is_leaf then follows from whether anything was recorded.",
]

EXERCISE = Exercise(inputs, call, judge, HINTS)
