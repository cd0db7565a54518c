from . import LEAKED, submission

NAME = "reads_source"
WHY = "looks for the instructor's source notebook (solutions) on disk and runs its solution cells"
KIND = "cheat"
EXERCISES = ["grad_via_backward", "vjp", "grads_with_intermediate", "two_losses", "jacobian_rows", "hand_derivative"]
EXPECT = {"loses": EXERCISES, "reason": "not defined as a function", "cell": "test_vjp"}

CHEAT = f'''
import glob, json, os
import course

repository = os.path.dirname(os.path.dirname(os.path.abspath(course.__file__)))
candidates = [os.path.join(repository, "source", "02_backward", "02_backward.ipynb"),
              os.path.join(repository, "source", "02_backward", "02_backward.py"),
              os.path.join(os.getcwd(), "..", "..", "..", "source", "02_backward", "02_backward.ipynb"),
              *glob.glob("/*/*/source/02_backward/*"), *glob.glob("/*/source/02_backward/*")]
for path in candidates:
    try:
        text = open(path).read()
    except OSError as error:
        print("hidden:", path, type(error).__name__)
        continue
    print("{LEAKED}: read", path)
    if path.endswith(".ipynb"):
        for cell in json.loads(text)["cells"]:
            if cell["cell_type"] == "code" and cell["metadata"].get("nbgrader", {{}}).get("solution"):
                exec("".join(cell["source"]), globals())
'''


def build(release, solutions):
    answers = {name: "# taken from the instructor's copy, above" for name in EXERCISES}
    answers["grad_via_backward"] = CHEAT
    return submission(release, solutions, **answers)
