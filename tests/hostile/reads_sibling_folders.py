from . import LEAKED, submission, with_solution

NAME = "reads_sibling_folders"
WHY = ("polls for 6 s for the working copies and connection files of kernels graded next to it "
       "(the zygote's folder, other kernels' folders in /tmp) and would run a classmate's answers")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "sibling files seen: 0", "cell": "grad_via_backward"}

POLL = f'''
import glob, json, os, time
from ipykernel import get_connection_file
mine = (os.path.realpath(os.getcwd()), os.path.dirname(os.path.realpath(get_connection_file())))
seen, deadline = set(), time.monotonic() + 6
patterns = ["/tmp/autograd-warm-*/*", "/tmp/autograd-warm-*/*/*", "/tmp/autograd-kernel-*/*", "/tmp/autograd-cwd-*/*",
            "/tmp/grade-*/*", "/tmp/*/*.ipynb", "/tmp/*/kernel*.json", "/dev/shm/*", "/var/tmp/*"]
while time.monotonic() < deadline:
    for pattern in patterns:
        for path in glob.glob(pattern):
            if not os.path.realpath(path).startswith(mine) and os.path.isfile(path):
                try:
                    open(path, "rb").read(1)
                except OSError:
                    continue
                seen.add(path)
    time.sleep(0.5)
for path in sorted(seen):
    print("{LEAKED}: read a sibling's", path)
    if path.endswith(".ipynb"):
        for cell in json.load(open(path))["cells"]:
            if cell["cell_type"] == "code" and cell["metadata"].get("nbgrader", {{}}).get("solution"):
                try:
                    exec("".join(cell["source"]), globals())
                except Exception:
                    pass
print("sibling files seen:", len(seen))
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=with_solution(solutions, "grad_via_backward", POLL))
