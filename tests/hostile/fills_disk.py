from . import MARKER, submission, with_solution

NAME = "fills_disk"
WHY = "writes 64 MB files into its folder, /tmp, /var/tmp and /dev/shm until refused, then answers correctly"
KIND = "runaway"
EXPECT = {"loses": [], "reason": "No space left on device", "cell": "vjp"}

FILL = f'''
import os
written = 0
for folder in (".", "/tmp", "/var/tmp", "/dev/shm"):
    try:
        for k in range(64):
            with open(os.path.join(folder, f"{MARKER}-fills_disk-{{k}}"), "wb") as handle:
                handle.write(bytes(64 * 2**20))
            written += 64
    except OSError as error:
        print(folder, error)
print("wrote", written, "MB")
'''


def build(release, solutions):
    return submission(release, solutions, vjp=with_solution(solutions, "vjp", FILL))
