"""The thin part of grading that runs in the student's kernel.

The grader sends ``respond_each(lesson, name, seeds)``; for each seed in turn, ``respond`` runs the
student's function on the inputs of that seed and publishes what it saw as plain data, with the
warnings the function gave beside it (``answer_warnings``: the grader shows them, and what this
kernel prints during a trial is not kept). Everything here may be tampered with by the notebook:
that can only change the data sent, which the grader judges on its own side.
"""
from IPython import get_ipython
from IPython.display import publish_display_data

from . import outcome
from .checks.answer_warnings import MIME as WARNINGS_MIME, Warned
from .checks.object_identity import kept_alive
from .checks.observation import MIME, Unreadable, dumps
from .exercise import exercises_of


def respond(lesson: str, name: str, seed: int) -> None:
    exercise = exercises_of(lesson)[name]
    namespace = get_ipython().user_ns
    warned = Warned()
    if not callable(namespace.get(name)):
        seen = outcome.reported(outcome.INCORRECT, f"`{name}` is not defined as a function: run its cell, and "
                                "keep the name and signature the exercise gives.", "not_defined")
    else:
        seen, warned = exercise.observe_warned(namespace[name], seed)
    try:
        text = dumps(seen)
    except Unreadable as error:
        text = dumps(outcome.reported(outcome.INCORRECT, f"your function returned something that cannot be "
                                      f"checked ({error}).", "unreadable"))
    sent = {MIME: text}
    if warned.said:
        sent[WARNINGS_MIME] = warned.dumps()
    publish_display_data(sent)


def respond_each(lesson: str, name: str, seeds: list[int]) -> None:
    """One observation per seed, in order: all of an exercise's trials in one round trip. What the
    trials make lives on until the last is sent, so no input takes the id of an earlier one."""
    with kept_alive():
        for seed in seeds:
            respond(lesson, name, seed)
