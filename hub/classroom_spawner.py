"""JupyterHub's local process spawner, with the two things a class hub needs that it does not do.

- Each user's server, and every kernel and terminal it starts, runs in a control group of its own whose
  memory cap is the spawner's ``mem_limit`` (LocalProcessSpawner only passes it on as MEM_LIMIT). The
  group is the grader's kind (autograder/grading/kernels/cgroups.py: v1 or v2, whichever the machine
  has), named ``hub-<user>`` beside the grading boxes, joined before the server drops root, and
  removed with whatever is left in it when the server stops.
- The server starts in its root folder (``notebook_dir``), not the home: nbgrader's formgrader reads
  the course's nbgrader_config.py from where its server starts.
- A user who has no JupyterLab workspace yet (a first login) gets ``first_workspace``: a student's
  opens on the Assignments tab. It is written as the user, after root is dropped, so no link in their
  home can make the hub write anywhere else.
"""
import json
import os

from jupyterhub.spawner import LocalProcessSpawner
from traitlets import Dict

from autograder.grading.kernels import cgroups


WORKSPACE = os.path.join(".jupyter", "lab", "workspaces", "default-37a8.jupyterlab-workspace")  # JupyterLab's
# file for the workspace "default" (jupyterlab_server's slugify), under its default workspaces folder


class ClassroomSpawner(LocalProcessSpawner):

    first_workspace = Dict(None, allow_none=True, help="The JupyterLab workspace (layout) of a user's first "
                           "login, written to their home if they have none; None: JupyterLab's own.").tag(config=True)

    def make_preexec_fn(self, name):
        become_user = super().make_preexec_fn(name)
        folders = memory_group(self.user.name, int(self.mem_limit or 0), self.log)
        start_in = os.path.expanduser(self.format_string(self.notebook_dir)) if self.notebook_dir else ""
        workspace = json.dumps(self.first_workspace) if self.first_workspace else ""

        def preexec():
            cgroups.join(folders)  # as root, before anything of the user's runs
            become_user()
            if workspace:
                _write_once(os.path.expanduser(os.path.join("~" + name, WORKSPACE)), workspace)
            if start_in:
                os.chdir(start_in)

        return preexec

    async def stop(self, now=False):
        await super().stop(now=now)
        which = cgroups.version()
        if which and os.geteuid() == 0:
            cgroups.remove(cgroups.paths(which, f"hub-{self.user.name}"))


def memory_group(user: str, memory: int, log) -> list[str]:
    """The folders of ``user``'s control group, made afresh with a cap of ``memory`` bytes (swap included);
    [] where there is no cap or none can be made, which ``log`` warns of."""
    if not memory:
        return []
    which, missing = cgroups.available()
    if not which:
        log.warning("No memory limit for %s's server: %s", user, ", ".join(missing))
        return []
    folders = cgroups.paths(which, f"hub-{user}")
    cgroups.create(which, folders, memory=memory, max_processes=0, cpu=0)
    return folders


def _write_once(path: str, text: str) -> None:
    """``text`` into a new file at ``path`` (run as the user); an existing one, or any error, leaves it be."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "x", encoding="utf-8") as handle:
            handle.write(text)
    except OSError:
        pass
