"""nbgrader's Execute step for the recorder: it hands over what a worker already executed.

The parallel grader records each executed notebook by running nbgrader's own ``autograde`` on it,
with this step where the kernel would be: nbgrader then overwrites locked cells, saves grades,
applies late penalties and writes ``autograded/`` exactly as it always does.
"""
from nbgrader.preprocessors import NbGraderPreprocessor


class MissingExecution(RuntimeError):
    """The recorder was asked to record a notebook no worker executed."""


class ReplayExecution(NbGraderPreprocessor):
    executed: dict = {}  # (student, assignment, notebook) -> executed notebook, filled by the recorder

    def preprocess(self, nb, resources):
        key = tuple(resources["nbgrader"][k] for k in ("student", "assignment", "notebook"))
        done = self.executed.pop(key, None)
        if done is None:
            raise MissingExecution(f"no executed notebook for {key}")
        if [c.get("id") for c in done.cells] != [c.get("id") for c in nb.cells]:
            raise MissingExecution(f"the executed notebook for {key} has other cells than the one recorded")
        return done, resources
