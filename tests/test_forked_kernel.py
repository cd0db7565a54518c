"""A warm kernel as its grading process follows it (forked_kernel.py), against a stand-in zygote: a
socket whose answers are the pid of a real process and, when it ends, its exit code."""
import json
import os
import select
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest

from autograder.grading.kernels.forked_kernel import ForkedKernel


class StandInZygote:
    """Answers one request as the zygote's supervisor does: the pid, then the exit code; kills the
    process if the asker lets go first."""

    def __init__(self, folder, answer=True):
        self.path, self.requests, self.let_go = str(folder / "zygote.sock"), [], threading.Event()
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(self.path)
        self.listener.listen(1)
        self.kernel = None
        threading.Thread(target=self.serve, args=(answer,), daemon=True).start()

    def serve(self, answer):
        connection, _ = self.listener.accept()
        self.requests.append(json.loads(connection.makefile("r").readline()))
        if not answer:
            time.sleep(30)
            return
        self.kernel = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        connection.sendall((json.dumps({"pid": self.kernel.pid}) + "\n").encode())
        watched = [connection]
        while self.kernel.poll() is None:
            if select.select(watched, [], [], 0.05)[0] and not connection.recv(64):
                self.let_go.set()
                self.kernel.kill()
                watched = []
        code = self.kernel.wait()
        try:
            connection.sendall((json.dumps({"exit": code}) + "\n").encode())
        except OSError:
            pass


def test_it_asks_for_a_kernel_follows_it_and_reads_its_end(tmp_path):
    zygote = StandInZygote(tmp_path)
    kernel = ForkedKernel(zygote.path, {"arguments": ["-f", "k.json"]}, within=10)
    assert zygote.requests == [{"arguments": ["-f", "k.json"]}] and kernel.pid == zygote.kernel.pid
    assert kernel.poll() is None
    kernel.terminate()  # the signal reaches the kernel itself
    assert kernel.wait(timeout=10) == -signal.SIGTERM and kernel.poll() == -signal.SIGTERM
    kernel.send_signal(signal.SIGINT)  # as Popen: a kernel that has ended is left alone


def test_letting_go_of_a_running_kernel_has_it_killed(tmp_path):
    zygote = StandInZygote(tmp_path)
    kernel = ForkedKernel(zygote.path, {}, within=10)
    kernel.close()
    assert zygote.let_go.wait(10) and zygote.kernel.wait(10) == -signal.SIGKILL


def test_a_zygote_that_does_not_answer_costs_only_the_time_it_was_given(tmp_path):
    zygote = StandInZygote(tmp_path, answer=False)
    started = time.monotonic()
    with pytest.raises(RuntimeError, match="started no kernel within 0.5 s"):
        ForkedKernel(zygote.path, {}, within=0.5)
    assert time.monotonic() - started < 10


def test_no_zygote_at_all_is_an_error_at_once_and_leaves_no_socket_open(tmp_path):
    before = len(os.listdir("/proc/self/fd"))
    with pytest.raises(OSError):
        ForkedKernel(str(tmp_path / "none.sock"), {}, within=10)
    assert len(os.listdir("/proc/self/fd")) == before
