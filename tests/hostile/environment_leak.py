from . import LEAKED, SECRET_NAME, submission, with_solution

NAME = "environment_leak"
WHY = ("looks for the grading command's secrets in its environment, its own /proc environ and "
       "every process it can see")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "secrets seen: 0", "cell": "vjp"}

LOOK = f'''
import glob, os
found = [k for k, v in os.environ.items() if "{SECRET_NAME}" in k]
for path in glob.glob("/proc/*/environ"):
    try:
        if b"{SECRET_NAME}" in open(path, "rb").read():
            found.append(path)
    except OSError:
        pass
for what in found:
    print("{LEAKED}: the grader's secret, in", what)
print("secrets seen:", len(found))
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", LOOK))
