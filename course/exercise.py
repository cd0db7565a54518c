"""An exercise: a declared thing with three parts, levels of hints and one set of outcomes.

- ``inputs(rng)`` draws the trial's inputs from a seeded generator: the student's kernel and the
  grader both rebuild them from the seed alone;
- ``call(answer, inputs)`` runs in the student's kernel: it calls the answer (with the technique
  checks that teach, e.g. "use backward() here") and returns what it saw, as plain data;
- ``judge(seen, expected, inputs)`` compares that with the expected values and raises a
  ``Mistake`` naming what went wrong.

The expected values come from references that live with the grader, not here: the grader computes
them with real PyTorch on its own side, and the self-check reads the ones stored for its fixed
seed (``expected/<lesson>.json``; a prediction table only as seals over the whole table). So what
students have holds the machinery, never the answers, and both sides judge through the same
``judge``. Course helpers that would do an exercise's work are closed while it runs (``closes``).
"""
import json
import os
import warnings
from functools import lru_cache
from typing import Callable

import torch

from . import outcome
from .checks.answer_warnings import Warned
from .checks.closed_helpers import closing
from .checks.explain_error import explain_error, show_warnings_once
from .checks.mistakes import Mistake
from .checks.observation import Unreadable, decode, round_trip
from .checks.random_inputs import DEMO_SEED, generator, recording_shapes, same_shapes, seed_global
from .checks.repeated_calls import (RUNS, TRIAL, call_order, handed_back_message, keeps_state_message, other_seed,
                                    tensors_held_by, tensors_in)
from .grade_ids import exercise_of_test, test_id  # noqa: F401  (the contract's names for graded cells)
from .hints import Hints

RAISED_AFTER_A_CALL = ("\n  (The call just before, on other inputs, ran without an error: if your function keeps "
                       "something from one call to the next, such as a tensor in a global or a default argument, "
                       "that can be why.)")
EXPECTED_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "exercises", "expected")
SELF_CHECK_SEEDS = (DEMO_SEED,)


class Exercise:
    def __init__(self, inputs: Callable, call: Callable, judge: Callable, hints: list[str], praise: str = "",
                 closes: tuple[str, ...] = ()):
        self.make, self.call, self.judge, self.praise = inputs, call, judge, praise
        self.closes = closes  # course helpers that would do this exercise's work (closed_helpers)
        self.hint_texts = hints
        self.name = self.lesson = ""  # set by ``named``, from the module that declares it (lesson_package)

    def named(self, name: str, lesson: str) -> "Exercise":
        """Give the exercise its name and lesson, which its messages, hints and stored values use."""
        self.name, self.lesson, self._hints = name, lesson, Hints(name, self.hint_texts)
        return self

    @property
    def hints(self) -> Hints:
        return self._hints

    def inputs(self, seed: int, shaped_as: int | None = None) -> dict:
        """The trial's inputs for ``seed``, the same in the kernel and in the grader; with ``shaped_as``,
        in that seed's shapes and dtypes (``random_inputs.same_shapes``)."""
        if shaped_as is None:
            return self._draw(seed)
        with recording_shapes() as drawn:
            self._draw(shaped_as)
        with same_shapes(drawn):
            return self._draw(seed)

    def _draw(self, seed: int) -> dict:
        with torch.random.fork_rng():  # module initialisers draw from the global generator too
            seed_global(seed)
            return self.make(generator(seed))

    def observe(self, answer, seed: int):
        """Kernel side: run the answer on the seed's inputs, twice, with other inputs before or between
        (``repeated_calls``); what the two judged runs saw, as the grader will read it. A warning the
        answer gives is shown once, not once per call."""
        with warnings.catch_warnings(record=True) as caught:
            try:
                return self._observe(answer, seed)
            finally:
                show_warnings_once(Warned.caught(caught))

    def observe_warned(self, answer, seed: int) -> tuple[object, Warned]:
        """Kernel side of grading: what ``observe`` returns, and the warnings the answer gave (each once)
        as plain data, for the grader to show in the graded cell: what a kernel prints while it
        answers the grader is not kept."""
        with warnings.catch_warnings(record=True) as caught:
            seen = self._observe(answer, seed)
        return seen, Warned.caught(caught)

    def _observe(self, answer, seed: int):
        runs, ran, returned = [], False, []
        held = tensors_held_by(answer)  # kept alive while the calls run, so their ids stay theirs
        for which in call_order(seed):
            if which == TRIAL:
                seen, tensors = self._run(answer, seed)
            else:  # other values in the trial's shapes and dtypes, where the exercise draws them by rand
                seen, tensors = self._run(answer, other_seed(seed), shaped_as=seed)
            if isinstance(seen, dict) and "__outcome__" in seen:
                if which == TRIAL and runs:  # the same inputs ran fine the first time
                    kind = "raised" if seen["__outcome__"] == outcome.RAISED else seen["kind"]
                    return outcome.reported(seen["__outcome__"], keeps_state_message(self.name, seen["message"], kind),
                                            "keeps_state")
                if ran and seen["__outcome__"] == outcome.RAISED:  # other inputs ran fine just before
                    return outcome.reported(outcome.RAISED, seen["message"] + RAISED_AFTER_A_CALL, seen["kind"])
                return seen  # a run that failed on its own says why; the others are not needed
            # inputs are new on every call: a tensor handed back again, and not one the answer held before
            # the first call (a constant), was kept by a call for the next
            if any(any(t is earlier for earlier in returned) and not any(t is constant for constant in held)
                   for t in tensors):
                return outcome.reported(outcome.INCORRECT, handed_back_message(self.name), "keeps_state")
            returned += tensors
            ran = True
            if which == TRIAL:
                runs.append(seen)
        return {RUNS: runs}

    def _run(self, answer, seed: int, shaped_as: int | None = None):
        """One call of the answer on fresh inputs of ``seed``: what it saw, as plain data or as a reported
        outcome, and the tensor objects among it (kept alive, so that their identity means something)."""
        inputs = self.inputs(seed, shaped_as)
        grad_mode = torch.is_grad_enabled()  # one run's leak must not change the next run's world
        try:
            with torch.random.fork_rng():  # the student's own random calls stay reproducible
                seed_global(seed)
                with closing(self.name, self.closes):
                    seen = self.call(answer, inputs)
        except NotImplementedError:
            return outcome.reported(outcome.NOT_ATTEMPTED, outcome.not_attempted_message(self.name),
                                    outcome.NOT_ATTEMPTED), []
        except Mistake as mistake:  # a technique check, or the answer's own code, said what is wrong
            return outcome.reported(outcome.INCORRECT, str(mistake), mistake.kind), []
        except Exception as error:  # an exception from the student's code, shown in autograd terms
            return outcome.reported(outcome.RAISED, f"your code raised {explain_error(error)}",
                                    type(error).__name__), []
        finally:
            torch.set_grad_enabled(grad_mode)
        try:
            return round_trip(seen), tensors_in(seen)
        except (Unreadable, TypeError, ValueError) as error:  # e.g. a Flags or Sealed holding a tensor
            return outcome.reported(outcome.INCORRECT, "your function returned something the check cannot "
                                    f"read ({error}): return what the exercise asks for.", "unreadable"), []

    def verdict(self, seen, expected, seed: int) -> outcome.Verdict:
        return outcome.repeated_verdict(self.judge, seen, expected, self.inputs(seed), self.name)

    def __call__(self, answer, *, seed: int = DEMO_SEED) -> None:
        """The self-check: call it with your answer."""
        expected = stored_expected(self.lesson, self.name, seed)
        if expected is None:
            raise outcome.CheckFailed(
                f"the self-check can only check seed{'s' if len(SELF_CHECK_SEEDS) > 1 else ''} "
                f"{', '.join(map(str, SELF_CHECK_SEEDS))}; the grader's message already names the mistake "
                f"it found with seed {seed}.")
        result = self.verdict(self.observe(answer, seed), expected, seed)
        outcome.show_self_check(self.name, result, seed, self.praise)

    def hint(self, level: int | None = None):
        """Each call shows the next level; hint(1), hint(2), ... shows that one."""
        self._hints.display(level)


def lesson_module(assignment: str) -> str:
    """``02_backward`` -> ``backward``: the exercises module is named after the assignment."""
    return assignment.split("_", 1)[1] if assignment[:2].isdigit() else assignment


def exercises_of(lesson: str) -> dict[str, Exercise]:
    """The exercises of a lesson (``course/exercises/<lesson>/``, one module each), in the lesson's order;
    none for a notebook that is not one of the course's lessons."""
    import importlib
    try:
        return importlib.import_module(f"course.exercises.{lesson}").EXERCISES
    except ModuleNotFoundError as missing:
        if missing.name != f"course.exercises.{lesson}":  # a module the lesson imports: a real error
            raise
        return {}


class StoredValuesMissing(RuntimeError):
    """The self-check's stored values are missing or unreadable: an install or build problem, not the answer's."""

    def _render_traceback_(self):
        return [f"StoredValuesMissing: {self}"]


def _fix() -> str:
    return ("Reinstall the course's student package (its wheel carries these files), or, in a checkout "
            "of the course, run `autograd-course build` to store them again.")


@lru_cache(maxsize=None)
def _stored(lesson: str) -> dict:
    path = os.path.join(EXPECTED_DIR, f"{lesson}.json")
    try:
        with open(path, encoding="utf-8") as handle:
            stored = json.load(handle)
    except FileNotFoundError:
        raise StoredValuesMissing(f"the self-check's stored values are missing: {path} does not exist. "
                                  + _fix()) from None
    except (OSError, ValueError) as error:
        raise StoredValuesMissing(f"the self-check's stored values in {path} cannot be read "
                                  f"({type(error).__name__}: {error}). " + _fix()) from None
    if not isinstance(stored, dict):
        raise StoredValuesMissing(f"the self-check's stored values in {path} are not a table. " + _fix())
    return stored


def stored_expected(lesson: str, name: str, seed: int):
    """The expected values for a self-check seed, as the authoring step stored them (None: not that seed)."""
    stored = _stored(lesson)
    if name not in stored:
        raise StoredValuesMissing(f"{os.path.join(EXPECTED_DIR, lesson + '.json')} holds no values for "
                                  f"`{name}`: it is older than the lesson. " + _fix())
    found = stored[name].get(str(seed))
    return None if found is None else decode(found)
