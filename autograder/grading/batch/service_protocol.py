"""How the grade command and the grading service talk: length-prefixed JSON messages on a Unix socket.

One connection grades one task at a time. The service first says who it is (``hello``: its workers and
the box its kernels are in) or why it refuses the caller (``refused``); then each task sent gets
``executed`` (the graded notebook), ``refused`` (a request that is not a task) or ``broken`` (a worker
died: the task may be sent again). Each side caps what it reads, so neither can be made to hold more.
"""
import json
import socket
import struct

HEADER = struct.Struct(">Q")


class ServiceRefused(RuntimeError):
    """The service cannot be reached, would not grade for this account, or refused a task."""


class ConnectionLost(ConnectionError):
    """The other side closed the connection, or sent more than the cap."""


def send(connection: socket.socket, message: dict | bytes) -> None:
    data = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8")
    connection.sendall(HEADER.pack(len(data)) + data)


def _exactly(connection: socket.socket, size: int) -> bytes:
    chunks, left = [], size
    while left:
        chunk = connection.recv(min(left, 1 << 20))
        if not chunk:
            raise ConnectionLost("the other side closed the connection")
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def receive_bytes(connection: socket.socket, cap: int) -> bytes:
    size, = HEADER.unpack(_exactly(connection, HEADER.size))
    if size > cap:
        raise ConnectionLost(f"a message of {size} bytes, over the cap of {cap}")
    return _exactly(connection, size)


def receive(connection: socket.socket, cap: int) -> dict:
    return json.loads(receive_bytes(connection, cap))


def peer_uid(connection: socket.socket) -> int:
    """The uid of the process at the other end, as the kernel saw it connect (not as it claims)."""
    credentials = connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _, uid, _ = struct.unpack("3i", credentials)
    return uid
