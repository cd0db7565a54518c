"""An exercise: a declared thing with three parts, levels of hints and one set of outcomes.

- ``inputs(rng)`` draws the trial's inputs from a seeded generator: the student's kernel and the
  grader both rebuild them from the seed alone;
- ``call(answer, inputs)`` runs in the student's kernel: it calls the answer (with the technique
  checks that teach, e.g. "use backward() here") and returns what it saw, as plain data;
- ``judge(seen, expected, inputs)`` compares that with the expected values and raises a
  ``Mistake`` naming what went wrong.

The expected values come from references that live with the grader, not here: the grader computes
them with real PyTorch on its own side, and the self-check reads the ones stored for a covering set
of seeds (``expected/<lesson>.json``: together they draw every kind of input the grader draws,
``checks/input_kinds``; a prediction table only as seals over the whole table). So what students
have holds the machinery, never the answers, and both sides judge through the same ``judge``.
Course helpers that would do an exercise's work are closed while it runs (``closes``).
"""
import warnings
from functools import wraps
from typing import Callable

import torch

from . import outcome
from .checks.answer_warnings import Warned
from .checks.closed_helpers import closing
from .checks.diagnose import describe_value
from .checks.explain_error import explain_error, show_warnings_once
from .checks.input_kinds import describe, features, nearest, same_kinds
from .checks.mistakes import Mistake
from .checks.object_identity import (constants_of, identities, identity_key_message, is_constant, keep,
                                     keyed_on_identity, kept_alive, note_kept, note_returned,
                                     returned_by_a_call)
from .checks.observation import Unreadable, round_trip
from .checks.random_inputs import generator, recording_shapes, same_shapes, seed_global
from .checks.repeated_calls import (RUNS, TRIAL, call_order, handed_back_message, keeps_state_message, other_seed,
                                    tensors_in)
from .checks.whose_error import codes_of, raised_by_a_raise_of_theirs, raised_by_student, where_raised
from .grade_ids import exercise_of_test, test_id  # noqa: F401  (the contract's names for graded cells)
from .hints import Hints
from .stored_values import stored_expected, stored_seeds

RAISED_AFTER_A_CALL = ("\n  (The call just before, on other inputs, ran without an error: if your function keeps "
                       "something from one call to the next, such as a tensor in a global or a default argument, "
                       "that can be why.)")
_NOTHING = object()  # the answer has not returned yet


class Exercise:
    def __init__(self, inputs: Callable, call: Callable, judge: Callable, hints: list[str], praise: str = "",
                 closes: tuple[str, ...] = (), edges: Callable | None = None):
        self.make, self.call, self.judge, self.praise = inputs, call, judge, praise
        self.closes = closes  # course helpers that would do this exercise's work (closed_helpers)
        # inputs -> the names of the edge cases they draw ("one row"), which the stored seeds must cover
        self.edges = edges
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
        # module initialisers draw from the global generator too; a default dtype the notebook set
        # must not change what the grader's process draws for the same seed
        dtype = torch.get_default_dtype()
        with torch.random.fork_rng():
            seed_global(seed)
            torch.set_default_dtype(torch.float32)
            try:
                return self.make(generator(seed))
            finally:
                torch.set_default_dtype(dtype)

    def observe(self, answer, seed: int):
        """Kernel side: run the answer on the seed's inputs, twice, with other inputs before or between
        (``repeated_calls``); what the two judged runs saw, as the grader will read it. A warning the
        answer gave is shown once, not once per call."""
        seen, warned = self.observe_warned(answer, seed)
        show_warnings_once(warned)
        return seen

    def observe_warned(self, answer, seed: int) -> tuple[object, Warned]:
        """Kernel side of grading: what ``observe`` returns, and the warnings the answer gave (each once)
        as plain data, for the grader to show in the graded cell: what a kernel prints while it
        answers the grader is not kept. Every warning is caught, however the notebook filtered them
        and whichever it met before, so what is shown does not depend on the kernel's history."""
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            seen = self._observe(answer, seed)
        return seen, Warned.caught(caught)

    def _observe(self, answer, seed: int):
        with kept_alive():  # no input of one call takes the id of an earlier one (object_identity)
            return self._calls(answer, seed)

    def _calls(self, answer, seed: int):
        runs, ran = [], False
        constants = constants_of(answer)
        for which in call_order(seed):
            if which == TRIAL:
                seen, tensors = self._run(answer, seed)
            else:  # other values in the trial's shapes and dtypes, where the exercise draws them by rand
                seen, tensors = self._run(answer, other_seed(seed), shaped_as=seed)
            note_kept(answer, constants)
            if isinstance(seen, dict) and "__outcome__" in seen:
                if which == TRIAL and runs:  # the same inputs ran fine the first time
                    kind = "raised" if seen["__outcome__"] == outcome.RAISED else seen["kind"]
                    return outcome.reported(seen["__outcome__"], keeps_state_message(self.name, seen["message"], kind),
                                            "keeps_state")
                if ran and seen["__outcome__"] == outcome.RAISED:  # other inputs ran fine just before
                    return outcome.reported(outcome.RAISED, seen["message"] + RAISED_AFTER_A_CALL, seen["kind"])
                return seen  # a run that failed on its own says why; the others are not needed
            # inputs are new on every call: a tensor a check already got back from the answer, and not
            # one the answer held as a constant, was kept by a call for the next
            if any(returned_by_a_call(t) and not is_constant(t, constants) for t in tensors):
                return outcome.reported(outcome.INCORRECT, handed_back_message(self.name), "keeps_state")
            note_returned(tensors)
            ran = True
            if which == TRIAL:
                runs.append(seen)
        return {RUNS: runs}

    def _run(self, answer, seed: int, shaped_as: int | None = None):
        """One call of the answer on fresh inputs of ``seed``: what it saw, as plain data or as a reported
        outcome, and the tensor objects among it (kept alive, so that their identity means something)."""
        inputs = self.inputs(seed, shaped_as)
        keep(inputs)
        returned = [_NOTHING]

        @wraps(answer)
        def watched(*args, **kwargs):
            returned[0] = answer(*args, **kwargs)
            return returned[0]

        grad_mode = torch.is_grad_enabled()  # one run's leak must not change the next run's world
        try:
            with torch.random.fork_rng():  # the student's own random calls stay reproducible
                seed_global(seed)
                with closing(self.name, self.closes):
                    seen = self.call(watched, inputs)
        except NotImplementedError as error:
            if not raised_by_a_raise_of_theirs(error, codes_of(self.call)):  # PyTorch's, not the stub's
                return self._raised(error, returned[0]), []
            return outcome.reported(outcome.NOT_ATTEMPTED, outcome.not_attempted_message(self.name),
                                    outcome.NOT_ATTEMPTED), []
        except Mistake as mistake:  # a technique check, or the answer's own code, said what is wrong
            return outcome.reported(outcome.INCORRECT, str(mistake), mistake.kind), []
        except Exception as error:  # an exception from the student's code, shown in autograd terms
            return self._raised(error, returned[0]), []
        finally:
            torch.set_grad_enabled(grad_mode)
        keep(seen, returned[0])
        if keyed_on_identity(answer, identities(inputs)):
            return outcome.reported(outcome.INCORRECT, identity_key_message(self.name), "keeps_state"), []
        try:
            return round_trip(seen), tensors_in(seen)
        except (Unreadable, TypeError, ValueError, OverflowError, RecursionError) as error:
            return outcome.reported(outcome.INCORRECT, "your function returned something the check cannot "
                                    f"read ({str(error)[:200]}): return what the exercise asks for.",
                                    "unreadable"), []

    def _raised(self, error: Exception, returned) -> dict:
        """An exception during a call: the student's code's (their function, or a hook of theirs the
        check ran), or the check's own, failing on what the function returned."""
        checks = codes_of(self.call)
        if raised_by_student(error, checks) or returned is _NOTHING:
            return outcome.reported(outcome.RAISED, f"your code raised {explain_error(error)}"
                                    f"{where_raised(error, checks)}", type(error).__name__)
        missing = " Is a `return` missing?" if returned is None else ""
        return outcome.reported(outcome.INCORRECT, f"the check could not use what `{self.name}` returned "
                                f"({describe_value(returned)}): {explain_error(error)}\nReturn what the exercise "
                                f"asks for.{missing}", "unusable_result")

    def verdict(self, seen, expected, seed: int) -> outcome.Verdict:
        return outcome.repeated_verdict(self.judge, seen, expected, self.inputs(seed), self.name)

    def self_check(self, answer, seeds) -> tuple[outcome.Verdict, int, Warned]:
        """The answer judged on the stored values of ``seeds`` in turn, up to the first that fails: its
        verdict and seed, and the warnings the answer gave, each once."""
        with kept_alive(), warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            for seed in seeds:
                result = self.verdict(self._observe(answer, seed), stored_expected(self.lesson, self.name, seed), seed)
                if not result.passed:
                    break
        return result, seed, Warned.caught(caught)

    def __call__(self, answer, *, seed: int | None = None) -> None:
        """The self-check: call it with your answer. With ``seed``, on that seed's inputs alone."""
        stored = stored_seeds(self.lesson, self.name)
        if seed is not None and (type(seed) is not int or not 0 <= seed < 2**63):
            raise TypeError(f"seed={seed!r}: a seed is a whole number from 0 up, as a grader's message names it")
        if seed is not None and seed not in stored:
            return self._unstored(answer, seed, stored)
        result, at, warned = self.self_check(answer, stored if seed is None else [seed])
        if not result.passed:
            show_warnings_once(warned)  # a correct answer prints no warning: it would read as a mistake
        praise = self.praise or (f"`{self.name}` matches PyTorch on all {len(stored)} inputs stored for it, which "
                                 "together draw every kind of input the grader draws." if seed is None and
                                 len(stored) > 1 else "")
        outcome.show_self_check(self.name, result, at, praise)

    def _unstored(self, answer, seed: int, stored: list[int]) -> None:
        """A seed without stored values (one a grader's message named, say): the answer runs on its own
        inputs, where an error or a broken rule shows as it would at grading; its values are compared
        on the stored seed whose inputs are most like them, and the message says which and why."""
        own = self.inputs(seed)
        like = nearest(features(own, self.edges), {s: features(self.inputs(s), self.edges) for s in stored})
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ran = self._observe(answer, seed)
        if isinstance(ran, dict) and "__outcome__" in ran:
            show_warnings_once(Warned.caught(caught))
            return outcome.show_self_check(self.name, self.verdict(ran, None, seed), seed)
        result, at, warned = self.self_check(answer, [like])
        kinds = (f"draws the same kinds of input as seed {seed}" if same_kinds(features(own, self.edges), features(
            self.inputs(like), self.edges)) else f"of the stored seeds draws the inputs most like seed {seed}'s")
        why = (f"seed {seed}'s own values cannot be compared here: expected values are stored only for the "
               "self-check's seeds, and the reference that computes the others stays with the grader")
        if not result.passed:
            show_warnings_once(warned)
            raise outcome.CheckFailed(f"{result.message}\n(checked `{self.name}` with seed {like}, which {kinds}; "
                                      f"{why})") from None
        outcome.show(outcome.Outcome("correct", (
            f"`{self.name}` ran on seed {seed}'s inputs ({describe(own)}) without an error or a broken rule, and "
            f"matches PyTorch on seed {like}, which {kinds} ({describe(self.inputs(like))}). {why[0].upper()}{why[1:]}.")))

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
