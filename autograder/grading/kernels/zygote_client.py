"""What the kernel manager launches in place of a warm kernel: ask the zygote, then stand in for it.

Run as ``python -I -S zygote_client.py SOCKET REQUEST_JSON`` (stdlib only, no site: nothing to
import before it asks). Signals sent to this process (interrupt, terminate) go to the kernel; it exits with
the kernel's exit code; if it is killed, the zygote's supervisor kills the kernel.
"""
import json
import os
import signal
import socket
import sys


def main(socket_path: str, request: str) -> int:
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    client.connect(socket_path)
    client.sendall((request + "\n").encode())
    replies = client.makefile("r")
    kernel = json.loads(replies.readline())["pid"]

    def forward(signum, _frame):
        try:
            os.kill(kernel, signum)
        except ProcessLookupError:
            pass

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, forward)
    line = replies.readline()
    return int(json.loads(line)["exit"]) if line else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
