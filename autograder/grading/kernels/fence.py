"""The fence around every grading kernel, declared once: one value, built from the configuration.

``Fence`` says what any kernel may use (user range, memory, processes, CPU, file size, scratch
space, visible folders, network, environment); ``Box`` is one live kernel's share of it (its uid,
its socket folder, its working folder). ``enter.enter(fence, box)`` applies both, whether the
kernel starts cold, is forked warm from the zygote, or runs under plain ``nbgrader autograde``.

Standard library only: the zygote and the cold start import this before hiding the repository.
"""
import json
import os
import shutil
import subprocess
import sys
from dataclasses import asdict, dataclass, field

# What every kernel is given, whatever it inherited: one thread per library, no debugger warning,
# and the mark by which the course draws its figures more cheaply (course/visuals/drawing.py).
KERNEL_ENVIRONMENT = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
                      "PYDEVD_DISABLE_FILE_VALIDATION": "1", "MPLBACKEND": "module://matplotlib_inline.backend_inline",
                      "PYTHONNOUSERSITE": "1", "AUTOGRAD_COURSE_KERNEL": "grading"}
UNBOXED_FLAG = "--unboxed-kernels-can-read-my-files"  # grade's way to say: grade without the box, knowing what it costs
STAGE = "/mnt"  # an existing, empty folder: a cold kernel's new root is mounted here, in its own namespace


@dataclass(frozen=True)
class Fence:
    namespaces: bool                  # own mount, PID, network and IPC namespaces and a new root
    memory: int
    max_processes: int
    cpu: float
    max_file: int
    scratch: int
    first_uid: int
    uid_count: int
    environment: tuple
    keep: tuple = ()                  # folders every kernel sees read-only: Python, the student package
    hidden: tuple = ()                # folders inside those it does not see: the instructor package
    cgroups: str = ""                 # "v1", "v2" or "" (none: rlimits only)
    network: bool = False             # kernels never get a network; declared here so no start path forgets
    library_patches: bool = True      # how the zygote starts, not a fence: ../library_patches, for speed
    missing: tuple = field(default=(), compare=False)  # what this machine cannot enforce, said at start

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> "Fence":
        values = json.loads(text)
        return cls(**{k: tuple(v) if isinstance(v, list) else v for k, v in values.items()})

    def statement(self) -> str:
        """What this fence holds a kernel to, in one line: said at the start of every grading run."""
        if not self.namespaces:
            return "Kernels are NOT boxed: " + "; ".join(self.missing)
        held = [f"its own root, user (uids {self.first_uid}-{self.first_uid + self.uid_count - 1}), "
                "PID, mount and IPC namespaces, no network",
                f"{self.scratch / 1024**2:g} MiB of scratch space"]
        if self.cgroups:
            held.append(f"a control group ({self.cgroups}) of {self.memory / 1024**3:g} GiB, "
                        f"{self.max_processes} processes, {self.cpu:g} core(s)")
        line = "Kernels are boxed: each has " + ", ".join(held)
        return line + (f"; WITHOUT {'; '.join(self.missing)}" if self.missing else "")

    def environment_for(self, box: "Box", inherited: dict) -> dict:
        """A kernel's whole environment: the allowlisted variables it inherited, and its own folders."""
        env = {k: v for k, v in inherited.items() if k in self.environment}
        env.update(KERNEL_ENVIRONMENT, HOME=box.home, TMPDIR=box.home,
                   MPLCONFIGDIR=os.path.join(box.home, ".matplotlib"), IPYTHONDIR=os.path.join(box.home, ".ipython"))
        return env


@dataclass(frozen=True)
class Box:
    """One kernel's share of the fence: a uid no other live kernel has, its sockets, its work."""
    uid: int
    sockets: str                      # folder with its connection file and sockets (the grader's path)
    work: str                         # folder it starts in: copied into its private scratch space
    cgroups: tuple = ()               # its control group's folders (one per v1 controller), made by the grader

    @property
    def home(self) -> str:
        return self.work

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> "Box":
        values = json.loads(text)
        return cls(**{**values, "cgroups": tuple(values.get("cgroups", ()))})


def build(get, keep=(), hidden=()) -> Fence:
    """The fence these settings declare on this machine; ``get(name)`` reads a setting of
    ``settings.GradingKernels``, where each is declared with its default.

    What the machine cannot enforce is left out and listed in ``missing``: rlimits stay whatever happens.
    """
    from . import cgroups  # stdlib only
    missing = []
    refused = namespaces_refused() if get("sandbox") else "sandboxing is switched off (GradingKernels.sandbox)"
    if refused:
        missing.append(f"namespaces ({refused}): no own root, users, network or PID namespace")
    version, absent = cgroups.available()
    if absent:
        missing.append(f"control groups for {', '.join(absent)}: memory is capped per process (rlimits), "
                       f"processes {'per kernel user' if not refused else 'not at all'}, CPU not at all")
    return Fence(namespaces=not refused, memory=int(get("memory_limit")), max_processes=int(get("max_processes")),
                 cpu=float(get("cpu_limit")), max_file=int(get("max_file")), scratch=int(get("scratch_size")),
                 first_uid=int(get("first_uid")), uid_count=int(get("uid_count")),
                 environment=tuple(get("environment")), keep=tuple(keep), hidden=tuple(hidden), cgroups=version if not absent else "",
                 library_patches=bool(get("library_patches")), missing=tuple(missing))


_refused: dict = {}


def namespaces_refused() -> str | None:
    """Asked once per process: None when kernels can be given namespaces here, else why not."""
    if "why" not in _refused:
        _refused["why"] = _probe_namespaces()
    return _refused["why"]


def _probe_namespaces() -> str | None:
    if not sys.platform.startswith("linux"):
        return f"namespaces are Linux-only (this is {sys.platform})"
    if os.geteuid() != 0:
        return "grading is not running as root, so it cannot create namespaces or switch users"
    if not shutil.which("unshare"):
        return "the unshare command (util-linux) is not installed"
    if not os.path.isdir(STAGE):
        return f"{STAGE} does not exist"
    done = subprocess.run(["unshare", "--mount", "--net", "--ipc", "--pid", "--fork", "true"],
                          capture_output=True, text=True)
    if done.returncode:
        return f"unshare was refused: {done.stderr.strip() or done.returncode}"
    return None
