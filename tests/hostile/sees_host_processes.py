from . import LEAKED, submission, with_solution

NAME = "sees_host_processes"
WHY = "lists /proc: a kernel in its own PID namespace should see only itself and its children"
KIND = "cheat"
EXPECT = {"loses": [], "reason": "processes visible"}

CHEAT = f'''
import os
pids = [p for p in os.listdir("/proc") if p.isdigit()]
print("processes visible:", len(pids))
if os.readlink("/proc/self") != str(os.getpid()):   # /proc belongs to another PID namespace
    names = set()
    for pid in pids:
        try:
            names.add(os.path.basename(open(f"/proc/{{pid}}/cmdline", "rb").read().split(b"\\0")[0].decode()))
        except OSError:
            pass
    print("{LEAKED}: the host's processes, e.g.", sorted(n for n in names if n)[:8])
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", before=CHEAT))
