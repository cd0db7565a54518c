from . import submission

NAME = "memory_bomb_in_function"
WHY = "two_losses allocates 64 MB blocks until memory runs out, when the grader calls it"
KIND = "runaway"
# MemoryError as a rule; the limit named when a failed allocation outside Python's reach killed the kernel
EXPECT = {"loses": ["two_losses"], "reason": ("MemoryError", "went past the memory limit"), "cell": "test_two_losses"}


def build(release, solutions):
    return submission(release, solutions, two_losses=(
        "def two_losses(x):\n    hog = []\n    while True:\n        hog.append(bytearray(64 * 2**20))"))
