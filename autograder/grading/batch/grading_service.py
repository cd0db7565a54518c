"""The grading service: every kernel in its box, for an instructor who is not root.

Boxing a kernel takes root (namespaces, a uid of its own, a control group), and on a class hub the
instructor is not root. So the hub runs this service as root (a JupyterHub-managed service), and the
instructor's ``autograd-course grade`` stays the instructor's own process: it reads the course, plans,
and records into ``autograded/`` and the gradebook as the instructor, and sends each submission's task
here over a Unix socket. The service grades the task as local grading does (its warm parents, its local
workers, each kernel in the full box) and sends back the graded notebook. Nothing of the instructor's
runs as root: the socket's peer is checked by the kernel (SO_PEERCRED) against the allowed users, a
task is plain JSON checked on arrival (``task_wire.py``), and the configuration it grades with is its
own, read from a root-owned folder given at start, never the instructor's ``nbgrader_config.py``.
The service never opens the course directory; the instructor's files stay the instructor's.

    autograd-course grading-service --socket /run/autograd-course/grading.sock --allow instructor \\
        --group instructor --course /opt/autograd-course/grading
"""
import grp
import os
import pwd
import socket
import stat
import sys
import threading
import time

from . import service_protocol as protocol
from .task_wire import BadTask, executed_as_data, task_from_json

class GradingService:
    def __init__(self, socket_path: str, allowed: set[int], config, workers: int, group: int | None = None):
        from ..kernels.settings import GradingKernels
        from .settings import GradingBatch
        self.socket_path, self.allowed, self.config, self.workers, self.group = \
            socket_path, allowed, config, workers, group
        self.fence = GradingKernels.of(config).fence()
        if not self.fence.namespaces:
            raise SystemExit("The grading service boxes every kernel, and it cannot here: "
                             + "; ".join(self.fence.missing) + ". Run it as root on Linux.")
        self.max_task = GradingBatch(config=config).max_submission_bytes
        self._lock = threading.Lock()
        self._pool = None
        self._zygote = None

    # --- the workers ---------------------------------------------------------------------------

    def pool(self):
        """The local workers, their warm parents started once and kept between batches."""
        with self._lock:
            if self._pool is None:
                from .fan_out import local_executor
                from .warm_start import start_warm_parents
                if self._zygote is None or not self._zygote.alive():
                    self._zygote = start_warm_parents(self.config)
                self._pool = local_executor(self.workers, self._zygote)
            return self._pool

    def _pool_broke(self, broken) -> None:
        with self._lock:
            if self._pool is broken:
                self._pool = None
        broken.shutdown(wait=False, cancel_futures=True)

    def grade(self, task) -> dict:
        from .fan_out import BrokenExecutor
        from .worker import grade_task
        pool = self.pool()
        try:
            return {"executed": executed_as_data(pool.submit(grade_task, task).result())}
        except BrokenExecutor:
            self._pool_broke(pool)
            return {"broken": "a grading worker died (out of memory, or killed); send the task again"}

    # --- the socket ----------------------------------------------------------------------------

    def listen(self) -> socket.socket:
        """The socket, in a folder of its own that only root writes; open to the allowed users' group."""
        folder = os.path.dirname(os.path.abspath(self.socket_path))
        os.makedirs(folder, mode=0o755, exist_ok=True)
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != 0 or info.st_mode & 0o022:
            raise SystemExit(f"{folder} must be a folder only root can write in (it holds the service's socket)")
        if os.path.lexists(self.socket_path):
            os.unlink(self.socket_path)
        server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        server.bind(self.socket_path)
        if self.group is not None:
            os.chown(self.socket_path, 0, self.group)
            os.chmod(self.socket_path, 0o660)
        else:  # the peer check is what authenticates
            os.chmod(self.socket_path, 0o666)
        server.listen(64)
        return server

    def serve(self) -> None:
        server = self.listen()
        self.pool()  # warm before the first batch arrives
        users = ", ".join(sorted(_user_name(uid) for uid in self.allowed))
        _log(f"grading service on {self.socket_path} for {users}, {self.workers} worker(s). {self.fence.statement()}")
        while True:
            connection, _ = server.accept()
            threading.Thread(target=self.answer, args=(connection,), daemon=True).start()

    def answer(self, connection: socket.socket) -> None:
        """One caller: checked, greeted, then its tasks one after another until it hangs up."""
        with connection:
            uid = protocol.peer_uid(connection)
            if uid not in self.allowed:
                _log(f"refused a connection from {_user_name(uid)}: not an instructor of this service")
                protocol.send(connection, {"refused": f"the grading service does not grade for {_user_name(uid)}"})
                return
            protocol.send(connection, {"hello": {"workers": self.workers, "box": self.fence.statement()}})
            cap = 2 * self.max_task + 64 * 1024**2  # base64 of the files, and the lesson's gradebook rows
            while True:
                try:
                    request = protocol.receive_bytes(connection, cap)
                except (protocol.ConnectionLost, OSError):
                    return
                started = time.monotonic()
                try:
                    task = task_from_json(request, self.config, self.max_task)
                except BadTask as why:
                    _log(f"refused a task from {_user_name(uid)}: {why}")
                    protocol.send(connection, {"refused": str(why)})
                    return
                reply = self.grade(task)
                outcome = "graded" if "executed" in reply else "broken"
                _log(f"{outcome} {task.student} / {task.lesson} for {_user_name(uid)} "
                     f"in {time.monotonic() - started:.1f} s")
                try:
                    protocol.send(connection, reply)
                except OSError:
                    return


def _user_name(uid: int) -> str:
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid {uid}"


def _log(line: str) -> None:
    print(time.strftime("%Y-%m-%d %H:%M:%S"), line, flush=True)


def uids_of(names: list[str]) -> set[int]:
    found = set()
    for name in names:
        try:
            found.add(pwd.getpwnam(name).pw_uid)
        except KeyError:
            raise SystemExit(f"--allow {name}: no such user") from None
    return found


def _only_root_can_change(path: str) -> None:
    """The configuration is Python this root process runs: nobody else may be able to change it."""
    for where in (path, os.path.dirname(os.path.abspath(path))):
        info = os.stat(where)
        if info.st_uid != 0 or info.st_mode & 0o022:
            sys.exit(f"{where} must belong to root and be writable by root alone: the grading service (root) "
                     "runs its configuration, so anyone who could change it could run code as root")


def run(args) -> int:
    """``autograd-course grading-service``: serve until stopped."""
    from traitlets.config import Config

    from ...course_dir import load_config
    from .settings import default_workers
    if os.geteuid() != 0:
        sys.exit("the grading service runs as root: it boxes each kernel with its own user and namespaces")
    if args.course:
        _only_root_can_change(os.path.join(args.course, "nbgrader_config.py"))
    config = load_config(args.course) if args.course else Config()
    group = grp.getgrnam(args.group).gr_gid if args.group else None
    GradingService(args.socket, uids_of(args.allow), config, args.workers or default_workers(), group).serve()
    return 0
