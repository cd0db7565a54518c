"""The exception a check raises when it has found what is wrong with an answer."""


class Mistake(Exception):
    """A wrong answer, described in autograd terms for the learner."""
