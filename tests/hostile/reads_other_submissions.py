from . import LEAKED, submission

NAME = "reads_other_submissions"
WHY = "looks for classmates' submitted and autograded notebooks next to its own and runs their answers"
KIND = "cheat"
EXERCISES = ["grad_via_backward", "vjp", "grads_with_intermediate", "two_losses", "jacobian_rows", "hand_derivative"]
EXPECT = {"loses": EXERCISES, "reason": "not defined as a function", "cell": "test_vjp"}

CHEAT = f'''
import glob, json, os

here = os.getcwd()   # <course>/autograded/<me>/02_backward
mine = os.path.realpath(os.path.join(here, "02_backward.ipynb"))
patterns = [os.path.join(here, "..", "..", "*", "02_backward", "*.ipynb"),
            os.path.join(here, "..", "..", "..", "submitted", "*", "02_backward", "*.ipynb"),
            "/*/*/submitted/*/02_backward/*.ipynb", "/*/*/autograded/*/02_backward/*.ipynb"]
others = [p for pattern in patterns for p in glob.glob(pattern) if os.path.realpath(p) != mine]
print("classmates' notebooks seen:", len(others))
for path in others:
    print("{LEAKED}: read", path)
    for cell in json.load(open(path))["cells"]:
        if cell["cell_type"] == "code" and cell["metadata"].get("nbgrader", {{}}).get("solution"):
            try:
                exec("".join(cell["source"]), globals())
            except Exception:
                pass
'''


def build(release, solutions):
    answers = {name: "# taken from a classmate, above" for name in EXERCISES}
    answers["grad_via_backward"] = CHEAT
    return submission(release, solutions, **answers)
