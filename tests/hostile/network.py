from . import LEAKED, submission, with_solution

NAME = "network"
WHY = "tries the network (a TCP connection out, a DNS lookup, an HTTP request) and answers correctly"
KIND = "cheat"
EXPECT = {"loses": [], "reason": "blocked: TCP"}

CHEAT = f'''
import socket, urllib.request

attempts = {{
    "TCP to 1.1.1.1:53": lambda: socket.create_connection(("1.1.1.1", 53), timeout=3),
    "DNS lookup of pypi.org": lambda: socket.getaddrinfo("pypi.org", 443),
    "HTTP to example.com": lambda: urllib.request.urlopen("http://example.com", timeout=3),
    "TCP to the host's 127.0.0.1:22": lambda: socket.create_connection(("127.0.0.1", 22), timeout=3),
}}
for what, attempt in attempts.items():
    try:
        attempt()
    except OSError as error:
        print(f"blocked: {{what}}: {{type(error).__name__}}")
    else:
        print(f"{LEAKED}: {{what}} worked")
'''


def build(release, solutions):
    return submission(release, solutions,
                      grad_via_backward=with_solution(solutions, "grad_via_backward", before=CHEAT))
