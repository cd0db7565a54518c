from . import submission, with_solution

NAME = "floods_sockets"
WHY = ("in two_losses' cell, sends 100 MiB messages many times on every socket the kernel has: stdin "
       "(which the grader never reads), shell, control and IOPub, one buffer sent again and again")
KIND = "runaway"
EXPECT = {"loses": ["two_losses", "vjp", "grads_with_intermediate", "jacobian_rows", "hand_derivative", "hvp"],
          "reason": "the grader cut the connection"}

FLOOD = '''
import zmq
kernel = get_ipython().kernel
blob = zmq.Frame(b"x" * (100 * 1024**2))
for _ in range(30):  # to the grader's stdin identity, as a kernel answers input_request there
    for ident in ([kernel.session.bsession], kernel._parent_ident.get("shell") or []):
        try:
            kernel.stdin_socket.send_multipart([*((ident,) if isinstance(ident, bytes) else ident), blob],
                                               copy=False, flags=zmq.NOBLOCK)
        except zmq.ZMQError:
            pass
for socket in (kernel.shell_stream.socket, kernel.control_stream.socket):
    for ident in [kernel._parent_ident.get("shell") or [], [kernel.session.bsession]]:
        for _ in range(10):
            try:
                socket.send_multipart([*ident, blob], copy=False, flags=zmq.NOBLOCK)
            except zmq.ZMQError:
                pass
for _ in range(30):
    kernel.iopub_socket.send_multipart([b"stream", blob], copy=False)
'''


def build(release, solutions):
    return submission(release, solutions, two_losses=with_solution(solutions, "two_losses", FLOOD))
