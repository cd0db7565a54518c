"""The grade command's side of the grading service: an executor whose tasks are graded there.

``grade_batch`` takes it like the local pool or a Dask cluster's: ``submit(grade_task, task)`` returns
a future of the graded notebook. Each task goes over a connection of its own (as many at once as the
service has workers), as plain JSON; a connection that breaks, or a worker that died in the service,
counts as a broken executor, so the batch sends the task once more, as it does for a local pool.
"""
import concurrent.futures as futures
import queue
import socket
import threading

from . import service_protocol as protocol
from .service_protocol import ServiceRefused
from .task_wire import executed_from_data, task_to_json

REPLY_CAP = 1024**3  # a graded notebook: its outputs are capped at 20 MB per notebook by the grader


class ServiceBroken(futures.BrokenExecutor):
    """The service went away or lost a worker while grading."""


def connect(path: str) -> tuple[socket.socket, dict]:
    """A connection to the service and its greeting: its workers and the box its kernels are in."""
    connection = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        connection.connect(path)
        greeting = protocol.receive(connection, 1024**2)
    except (OSError, protocol.ConnectionLost) as error:
        connection.close()
        raise ServiceRefused(f"the grading service at {path} cannot be reached: {error}") from None
    if "refused" in greeting:
        connection.close()
        raise ServiceRefused(greeting["refused"])
    return connection, greeting["hello"]


def greeting(path: str) -> dict:
    """What the service says of itself (``ServiceRefused`` if it cannot be reached or will not grade)."""
    connection, hello = connect(path)
    connection.close()
    return hello


class ServiceExecutor:
    def __init__(self, path: str):
        self.path = path
        first, hello = connect(path)
        self.slots, self.box = max(1, int(hello["workers"])), hello["box"]
        self._idle: queue.SimpleQueue = queue.SimpleQueue()
        self._idle.put(first)
        self._open = [first]

    def _connection(self) -> socket.socket:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            connection, _ = connect(self.path)
            self._open.append(connection)
            return connection

    def submit(self, function, task) -> futures.Future:
        """``function`` is the worker's ``grade_task``; the service runs its own."""
        future: futures.Future = futures.Future()
        future.set_running_or_notify_cancel()
        threading.Thread(target=self._grade, args=(task, future), daemon=True).start()
        return future

    def _grade(self, task, future: futures.Future) -> None:
        try:
            connection = self._connection()
            protocol.send(connection, task_to_json(task))
            reply = protocol.receive(connection, REPLY_CAP)
        except ServiceRefused as error:
            future.set_exception(ServiceBroken(str(error)))
            return
        except (OSError, protocol.ConnectionLost, ValueError) as error:
            future.set_exception(ServiceBroken(f"the grading service stopped answering: {error}"))
            return
        if "executed" in reply:
            self._idle.put(connection)
            future.set_result(executed_from_data(reply["executed"]))
        elif "broken" in reply:
            self._idle.put(connection)
            future.set_exception(ServiceBroken(reply["broken"]))
        else:
            connection.close()
            future.set_exception(ServiceRefused(reply.get("refused", "the grading service refused the task")))

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        for connection in self._open:
            try:
                connection.close()
            except OSError:
                pass
