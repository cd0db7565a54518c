"""The kernel manager and client grading uses: a box per kernel, IPC sockets, bounded messages.

IPC (Unix sockets in the box's own folder) instead of TCP: the kernel has no network to listen
on, and the "running over TCP without encryption" warning no longer shows once per notebook.

The manager takes a box (a uid of its own, a socket folder, a control group's name) when it is made
and gives it back when its kernel is cleaned up; restarts keep the box. It chooses how the kernel
starts, cold or forked from the zygote (``provisioners.py``): either way the kernel enters the same
box with the same fence (``enter.py``).
"""
import asyncio
import os
import shutil
import tempfile
import time
import uuid
from queue import Empty

import zmq.asyncio
from zmq.utils.monitor import parse_monitor_message
from jupyter_client.asynchronous import AsyncKernelClient
from jupyter_client.connect import channel_socket_types
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.session import Session
from traitlets import Any, Instance, Integer, Type, Unicode

from . import cgroups, uids
from .fence import Box, Fence
from .provisioners import ColdProvisioner, WarmProvisioner, forks_warm

MESSAGE_LIMIT = 64 * 1024**2  # bytes of a message's content the grader decodes, unless told a smaller cap
DYING = 5.0  # seconds a kernel whose connection closed has to be seen ended, before it counts as cut off


class BoundedSession(Session):
    """A session that measures what a kernel sends before decoding any of it.

    A message's content larger than ``max_content`` is not parsed: it arrives empty, marked
    ``oversized`` with its size, which the executor counts against the notebook's output cap.
    Every message carries ``wire_bytes``, the size of what it carried, for the same count.
    """

    max_content = Integer(MESSAGE_LIMIT)

    def deserialize(self, msg_list, content=True, copy=True):
        frames = msg_list[4:] if copy else [f.bytes if hasattr(f, "bytes") else f for f in msg_list[4:]]
        sizes = [len(f) for f in frames]
        if any(size > self.max_content for size in sizes[:1]) or sum(sizes[:4]) > 4 * self.max_content:
            message = super().deserialize(msg_list, content=False, copy=copy)
            message["content"], message["buffers"] = {}, []
            message["oversized"] = sum(sizes)
        else:
            message = super().deserialize(msg_list, content=content, copy=copy)
        message["wire_bytes"] = sum(sizes)
        return message


class GradingKernelClient(AsyncKernelClient):
    """jupyter_client's client, ready as soon as the kernel has answered on both channels.

    jupyter_client's own ``wait_for_ready`` ends by waiting for IOPub to fall silent, on every kernel
    start. nbclient ignores IOPub messages that answer other requests, so a grading kernel needs no
    such flush, and each notebook would otherwise pay that idle wait.

    Its sockets also retry their connection every 10 ms rather than ZeroMQ's 100 ms: they connect
    before the newly forked kernel has bound its sockets, and would otherwise idle until the next try.

    Every socket it opens is bounded, since ZeroMQ queues whatever a peer sends until it is read: a
    part larger than ``max_part`` makes ZeroMQ cut the connection (``cut_off`` reports it, and the
    executor stops the notebook with that reason), and at most ``max_queue`` messages wait unread.
    The channels grading never reads (stdin, as nbclient allows no input; the heartbeat, as the
    manager watches the kernel's process) are never opened: a message sent on them goes nowhere.
    """

    max_part = Integer(2 * MESSAGE_LIMIT, help="Largest message part, in bytes, a socket accepts.")
    max_queue = Integer(128, help="Messages each socket holds unread, at most.")

    def _context_default(self) -> zmq.asyncio.Context:
        self._created_context = True
        context = zmq.asyncio.Context()
        context.setsockopt(zmq.RECONNECT_IVL, 10)
        return context

    def start_channels(self, shell=True, iopub=True, stdin=False, hb=False, control=True) -> None:
        super().start_channels(shell=shell, iopub=iopub, stdin=False, hb=False, control=control)

    def _create_connected_socket(self, channel: str, identity: bytes | None = None):
        socket = self.context.socket(channel_socket_types[channel])
        socket.setsockopt(zmq.MAXMSGSIZE, self.max_part)
        socket.setsockopt(zmq.RCVHWM, self.max_queue)
        socket.linger = 1000
        if identity:
            socket.identity = identity
        watch = socket.get_monitor_socket(zmq.EVENT_CONNECTED | zmq.EVENT_DISCONNECTED)
        self._watches = {**getattr(self, "_watches", {}), channel: (zmq.Socket.shadow(watch.underlying), [])}
        socket.connect(self._make_url(channel))
        return socket

    def cut_off(self) -> list[str]:
        """The channels whose connection ZeroMQ cut (a part over ``max_part``, or the kernel gone)."""
        cut = []
        for channel, (watch, seen) in getattr(self, "_watches", {}).items():
            while True:
                try:
                    seen.append(parse_monitor_message(watch.recv_multipart(zmq.NOBLOCK))["event"])
                except zmq.ZMQError:  # nothing more (Again), or closed with its socket
                    break
            if zmq.EVENT_DISCONNECTED in seen:
                cut.append(channel)
        return cut

    async def wait_for_ready(self, timeout: float | None = None) -> None:
        deadline = time.monotonic() + (float("inf") if timeout is None else timeout)
        while True:
            self.kernel_info()
            try:
                reply = await self.shell_channel.get_msg(timeout=1)
            except Empty:
                reply = None
            if reply is not None and reply["msg_type"] == "kernel_info_reply":
                try:  # IOPub is connected once the kernel's status for this request reaches it
                    await self.iopub_channel.get_msg(timeout=0.2)
                except Empty:
                    pass
                else:
                    self._handle_kernel_info_reply(reply)
                    return
            if not await self._async_is_alive():
                raise RuntimeError("Kernel died before replying to kernel_info")
            if time.monotonic() > deadline:
                raise RuntimeError(f"Kernel didn't respond in {timeout:.0f} seconds")

    _async_wait_for_ready = wait_for_ready


class SandboxedKernelManager(AsyncKernelManager):
    """A kernel in a box of its own: ``fence`` says what it may use, ``factory`` (if any) forks it warm."""

    client_factory = Type(klass=GradingKernelClient)
    fence = Instance(Fence, allow_none=True, help="The fence its kernel gets (required).")
    factory = Any(None, help="The KernelFactory (zygote) to fork kernels from; None: start them cold.")
    work = Unicode("", help="Folder the kernel starts in (copied into its private scratch space).")
    message_limit = Integer(MESSAGE_LIMIT, help="Largest message content the grader decodes, in bytes.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        if self.fence is None:  # never a default: the fence is the course's, built by its executor
            raise ValueError("a grading kernel needs its fence (GradingKernels.fence())")
        self.scratch_dirs: list[str] = []
        try:  # also names its control group, so taken even where users cannot be switched
            self.uid, self._uid_lock = uids.take(self.fence.first_uid, self.fence.uid_count)
        except OSError:
            if self.fence.namespaces:
                raise
            self.uid, self._uid_lock = os.getuid(), None
        self.socket_dir = self.factory.scratch("kernel-") if self.factory else tempfile.mkdtemp(prefix="autograd-kernel-")
        os.chmod(self.socket_dir, 0o700)
        self.cgroups = tuple(cgroups.paths(self.fence.cgroups, f"box-{self.uid}")) if self.fence.cgroups else ()
        self.transport = "ipc"
        self.ip = os.path.join(self.socket_dir, "kernel")
        self.connection_file = os.path.join(self.socket_dir, "kernel.json")
        self._clients: list = []
        self.cut = ""  # the channel whose connection was cut, once one was

    def client(self, **kwargs):
        """Its sockets take parts of up to twice the largest message decoded (larger ones are a breach
        either way) and queue at most 128 messages."""
        kwargs.setdefault("max_part", 2 * self.message_limit + 65536)
        client = super().client(**kwargs)
        self._clients.append(client)
        return client

    async def _async_is_alive(self) -> bool:
        """A kernel whose connection was cut is dead to grading: what it sends is lost from then on.

        nbclient asks this every second while a cell runs, so a cut ends the cell at once rather than
        at its timeout, and the kernel is restarted as after a death; ``cut`` names the channel, for
        the executor's reason, until then. A kernel that is dying closes its sockets before its end is
        reported, later on a loaded machine: a cut is a kernel's still alive ``DYING`` seconds on (a
        death taken for a cut would stop the whole notebook).
        """
        alive = await super()._async_is_alive()
        if alive and not self.cut:
            cut = next((c for client in self._clients for c in client.cut_off()), "")
            if cut:
                seen = time.monotonic()
                while alive and time.monotonic() - seen < DYING:
                    await asyncio.sleep(0.05)
                    alive = await super()._async_is_alive()
                self.cut = cut if alive else ""
        return alive and not self.cut

    is_alive = _async_is_alive

    def _session_default(self) -> Session:
        return BoundedSession(parent=self, max_content=self.message_limit)

    @property
    def box(self) -> Box:
        return Box(self.uid, self.socket_dir, self.work or self.socket_dir, self.cgroups)

    def breaches(self) -> list[str]:
        """The caps this kernel (with its children) hit since last asked, as reasons."""
        return self.provisioner.breaches() if self.provisioner is not None else []

    def peak_memory(self) -> int:
        """The most memory this kernel (with its children) has held since it started (0: not counted)."""
        return self.provisioner.peak_memory() if self.provisioner is not None else 0

    async def _async_pre_start_kernel(self, **kw):
        """Every start, restarts too: the provisioner is this manager's choice (never one looked up by
        entry point), and a restarted kernel's old clients, which saw their kernel go, are forgotten."""
        self._clients, self.cut = [], ""
        if self.provisioner is None:
            self.kernel_id = self.kernel_id or kw.pop("kernel_id", str(uuid.uuid4()))
            self.provisioner = self._provisioner()
        return await super()._async_pre_start_kernel(**kw)

    def _provisioner(self):
        common = dict(kernel_id=self.kernel_id, kernel_spec=self.kernel_spec, parent=self, fence=self.fence)
        if self.factory is not None and forks_warm(self.kernel_spec.argv):
            return WarmProvisioner(factory=self.factory, **common)
        return ColdProvisioner(**common)

    async def _async_wait(self, pollinterval: float = 0.01) -> None:
        """A killed kernel is gone almost at once: look every 10 ms, not jupyter_client's 100."""
        await super()._async_wait(pollinterval)

    async def _async_cleanup_resources(self, restart: bool = False) -> None:
        await super()._async_cleanup_resources(restart=restart)
        if not restart:
            for folder in [self.socket_dir, *self.scratch_dirs]:
                shutil.rmtree(folder, ignore_errors=True)
            if self._uid_lock is not None:
                uids.give_back(self._uid_lock)
                self._uid_lock = None
