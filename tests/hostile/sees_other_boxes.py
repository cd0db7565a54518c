from . import LEAKED, submission, with_solution

NAME = "sees_other_boxes"
WHY = ("looks at what a box could once see of the machine: every box's control group (a classmate's "
       "memory and process count) under /sys, the host's devices (/dev/fuse, disks), the instructor package")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

LOOK = f'''
import glob, importlib, os
for pattern in ("/sys/fs/cgroup/*", "/sys/fs/cgroup/*/autograd*", "/sys/class/*", "/sys/block/*",
                "/dev/fuse", "/dev/sd*", "/dev/vd*", "/dev/nvme*", "/dev/loop*", "/dev/mem", "/dev/kmsg"):
    for path in glob.glob(pattern):
        print("{LEAKED}: sees", path)
for name in ("autograder.grading.judging.references", "autograder.grading.judging.verdict"):
    try:
        importlib.import_module(name)
    except ImportError:
        print("hidden:", name)
    else:
        print("{LEAKED}: imported", name)
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", before=LOOK))
