"""A throwaway JupyterLab for browser tests: loopback only, a random token, a temporary home.

Everything the server or its kernels could write (settings, workspaces, runtime files, IPython
and matplotlib caches, the notebooks themselves) lands in one temporary folder, so a test run
never touches the real $HOME or the repository's release/. Extensions still load, because
JupyterLab finds them under sys.prefix/share/jupyter, which no variable here replaces.
"""
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass

HOST = "127.0.0.1"
CONFIG = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "jupyter-config")
# The "get Jupyter news?" toast would sit over the notebook a test clicks on.
DISABLED_PLUGINS = {"@jupyterlab/apputils-extension:announcements": True}


@dataclass(frozen=True)
class RunningLab:
    url: str
    token: str
    root_dir: str
    log_path: str

    def notebook_url(self, path: str) -> str:
        """The notebook alone in a fresh workspace (`reset`), authenticated by the token."""
        return f"{self.url}/lab/tree/{urllib.parse.quote(path)}?reset&token={self.token}"

    def shut_down_kernels_of(self, path: str) -> None:
        """End the sessions (and so the kernels) of the notebook at ``path``, as its tab's menu would."""
        headers = {"Authorization": f"token {self.token}"}
        with urllib.request.urlopen(urllib.request.Request(f"{self.url}/api/sessions", headers=headers),
                                    timeout=30) as response:
            sessions = json.load(response)
        for session in sessions:
            if session.get("path") == path:
                request = urllib.request.Request(f"{self.url}/api/sessions/{session['id']}", method="DELETE",
                                                 headers=headers)
                urllib.request.urlopen(request, timeout=30).close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _private_env(home: str) -> dict[str, str]:
    env = dict(os.environ)
    for variable, folder in [("HOME", "home"), ("JUPYTER_CONFIG_DIR", "jupyter-config"),
                             ("JUPYTER_DATA_DIR", "jupyter-data"), ("JUPYTER_RUNTIME_DIR", "jupyter-runtime"),
                             ("IPYTHONDIR", "ipython"), ("MPLCONFIGDIR", "matplotlib")]:
        env[variable] = os.path.join(home, folder)
        os.makedirs(env[variable], exist_ok=True)
    # Inline figures in the notebook; never a GUI backend inherited from the caller.
    env.pop("MPLBACKEND", None)
    env.pop("JUPYTER_PATH", None)
    labconfig = os.path.join(env["JUPYTER_CONFIG_DIR"], "labconfig")
    os.makedirs(labconfig)
    with open(os.path.join(labconfig, "page_config.json"), "w") as f:
        json.dump({"disabledExtensions": DISABLED_PLUGINS}, f)
    return env


def _wait_until_up(url: str, token: str, process: subprocess.Popen, log_path: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    request = urllib.request.Request(f"{url}/api/status", headers={"Authorization": f"token {token}"})
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {process.returncode}; log:\n{tail(log_path)}")
        try:
            with urllib.request.urlopen(request, timeout=2) as response:
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            pass
        time.sleep(0.25)
    raise TimeoutError(f"JupyterLab did not answer {url}/api/status within {timeout:.0f} s; log:\n{tail(log_path)}")


def tail(path: str, lines: int = 40) -> str:
    with open(path, errors="replace") as f:
        return "".join(f.readlines()[-lines:])


def _stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


@contextmanager
def jupyterlab(notebooks_dir: str, extra_args: tuple[str, ...] = (), startup_timeout: float = 60.0):
    """Serve a copy of `notebooks_dir` from a private JupyterLab; yields a RunningLab.

    `extra_args` are more command-line options for `jupyter lab`.
    """
    home = tempfile.mkdtemp(prefix="autograd-course-lab-")
    try:
        root_dir = os.path.join(home, "notebooks")
        shutil.copytree(notebooks_dir, root_dir, ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        env = _private_env(home)
        port, token = free_port(), secrets.token_hex(24)
        url = f"http://{HOST}:{port}"
        log_path = os.path.join(home, "jupyterlab.log")
        command = [sys.executable, "-m", "jupyter", "lab", "--no-browser",
                   f"--ServerApp.ip={HOST}", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
                   f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}", *extra_args]
        if os.geteuid() == 0:  # containers often run tests as root; Jupyter refuses without this
            command.append("--allow-root")
        with open(log_path, "w") as log:
            process = subprocess.Popen(
                command, cwd=root_dir, env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        try:
            _wait_until_up(url, token, process, log_path, startup_timeout)
            yield RunningLab(url=url, token=token, root_dir=root_dir, log_path=log_path)
        finally:
            _stop(process)
    finally:
        shutil.rmtree(home, ignore_errors=True)


@contextmanager
def lab_as(mode: str, folder: str):
    """A private JupyterLab on a copy of ``folder``, configured as ``make <mode-lab>`` configures it."""
    with ExitStack() as stack:
        before = os.environ.get("JUPYTER_CONFIG_PATH")
        os.environ["JUPYTER_CONFIG_PATH"] = os.path.join(CONFIG, mode)
        try:  # the server copies the environment as it starts; the tests keep their own
            running = stack.enter_context(jupyterlab(folder, extra_args=("--LabApp.expose_app_in_browser=True",)))
        finally:
            if before is None:
                os.environ.pop("JUPYTER_CONFIG_PATH")
            else:
                os.environ["JUPYTER_CONFIG_PATH"] = before
        yield running
