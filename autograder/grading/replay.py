"""The recorder's first autograde step: it hands over the notebook a worker already graded.

The parallel grader records each graded notebook by running nbgrader's own ``autograde`` on the
submission, configured with this step as its only sanitising step and the gradebook-writing steps
as its autograding ones (``steps.py``): nbgrader then copies the submission, writes the graded
notebook to ``autograded/``, saves its grades and applies late penalties exactly as it always does.
"""
from nbgrader.preprocessors import NbGraderPreprocessor


class MissingExecution(RuntimeError):
    """The recorder was asked to record a notebook no worker graded."""


class ReplayExecution(NbGraderPreprocessor):
    executed: dict = {}  # (student, assignment, notebook) -> graded notebook, filled by the recorder

    def preprocess(self, nb, resources):
        key = tuple(resources["nbgrader"][k] for k in ("student", "assignment", "notebook"))
        done = self.executed.pop(key, None)
        if done is None:
            raise MissingExecution(f"no graded notebook for {key}")
        return done, resources
