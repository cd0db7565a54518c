from . import submission

NAME = "no_kernelspec"
WHY = "the solution with its kernelspec and language_info deleted"
KIND = "broken_file"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}


def build(release, solutions):
    notebook = submission(release, solutions)
    notebook.metadata.pop("kernelspec", None)
    notebook.metadata.pop("language_info", None)
    return notebook
