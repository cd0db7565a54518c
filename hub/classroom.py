"""The class hub's people, folders and servers: what `make hub`, hub/jupyterhub_config.py and the tests share.

One instructor and a list of students, each a system user with a private home (mode 0700), so no
student can read a classmate's notebooks or nbgrader's cache of their submissions (whose secret
names their feedback). The instructor's course directory (source/, the gradebook, submitted/,
autograded/, feedback/) is a copy of this checkout's course in the instructor's home. The exchange
is a sticky, world-writable folder (1777): nbgrader needs every student to write there, and the
sticky bit stops anyone from moving the course's folder in it out of the way. What serves users
lives under one prefix outside the checkout (hub_environments.py): the students' environment, the
instructor's (whose grader package only the instructor's group can read) and the servers' Jupyter
configuration; the checkout itself is closed to other accounts, and `make hub` checks, as a student,
that nothing of the course can be read.

Settings, read from the environment by `Classroom.from_environment` (their defaults after the =):
    AUTOGRAD_HUB_INSTRUCTOR=instructor       the instructor's user name (the hub's admin)
    AUTOGRAD_HUB_STUDENTS="student1 student2" the students' user names
    AUTOGRAD_HUB_IP=127.0.0.1, AUTOGRAD_HUB_PORT=8000  where the hub listens
    AUTOGRAD_HUB_STATE=<checkout>/hub/state  the hub's database, cookie secret, new passwords, the
                                             grading service's copy of the course configuration
    AUTOGRAD_HUB_PREFIX=/opt/autograd-course  the environments and configuration users' servers run
    AUTOGRAD_HUB_COURSE=~instructor/autograd-course  the instructor's course directory
    AUTOGRAD_HUB_MEMORY=4G                   memory for each user's server and all its kernels
    AUTOGRAD_HUB_IDLE_TIMEOUT=3600           seconds without activity before a server is stopped
    AUTOGRAD_HUB_GRADING_SOCKET=/run/autograd-course/grading.sock  where the grading service listens
    AUTOGRAD_COURSE_EXCHANGE (nbgrader_config.py's default)  nbgrader's exchange
"""
import glob
import grp
import os
import pwd
import secrets
import shutil
import subprocess
import sys
from dataclasses import dataclass

from traitlets.config.loader import PyFileConfigLoader

CHECKOUT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Every account the hub makes, here or from its admin page: a private home, a group of its own.
USERADD = ["useradd", "--create-home", "--user-group", "--key", "HOME_MODE=0700", "--shell", "/bin/bash"]
COURSE_FILES = ("nbgrader_config.py", "source", "release")  # what the instructor's course directory starts from
# nbgrader's inbound is 2733; sticky too here, so no student can rename away a classmate's submission.
INBOUND_MODE, OUTBOUND_MODE, EXCHANGE_MODE = 0o3733, 0o755, 0o1777
# Each server's Jupyter configuration: the checkout's jupyter-config/ folders, copied under the prefix.
SERVER_CONFIG = {"instructor": ("hub-instructor", "instructor"), "student": ("hub-student",)}
# A JupyterLab terminal is a login shell, whose /etc/profile sets PATH afresh: this puts the server's own
# environment (AUTOGRAD_HUB_ENV, from the hub's spawner) back in front, for the hub's users only.
INSTRUCTORS = "autograd-instructors"  # the system group of those who may read the grader and ask it to grade
LAB_EXTENSION = "autograd-course"  # jupyter-config/labextensions/: Validate's summary, feedback in one click
RENAMED_LAB_EXTENSIONS = ("autograd-course-hub",)  # its earlier names, removed from an environment built before
# A student's first JupyterLab opens on nbgrader's Assignments tab, where every lesson starts (fetch).
FIRST_WORKSPACE = {
    "data": {"layout-restorer:data": {"main": {"dock": {"type": "tab-area", "currentIndex": 0,
                                                        "widgets": ["nbgrader-assignment-list:nbgrader-assignment-list"]},
                                               "current": "nbgrader-assignment-list:nbgrader-assignment-list"},
                                      "left": {"collapsed": False, "visible": True, "current": "filebrowser",
                                               "widgets": ["filebrowser"]},
                                      "right": {"collapsed": True, "visible": True, "widgets": []},
                                      "relativeSizes": [0.2, 0.8, 0]},
             "nbgrader-assignment-list:nbgrader-assignment-list": {"data": {}}},
    "metadata": {"id": "default"}}
PROFILE = "/etc/profile.d/autograd-course-hub.sh"
PROFILE_TEXT = """# The autograd-course class hub (hub/classroom.py): a JupyterLab terminal of the hub is a login shell;
# its server's environment goes back in front of the PATH that /etc/profile set. Others: no change.
if [ -n "${AUTOGRAD_HUB_ENV:-}" ] && [ -d "$AUTOGRAD_HUB_ENV/bin" ]; then
  case ":$PATH:" in *":$AUTOGRAD_HUB_ENV/bin:"*) ;; *) PATH="$AUTOGRAD_HUB_ENV/bin:$PATH"; export PATH ;; esac
fi
"""


@dataclass(frozen=True)
class Classroom:
    instructor: str
    students: tuple[str, ...]
    ip: str
    port: int
    state: str
    prefix: str
    course_dir: str
    course_id: str
    exchange: str
    memory: str = "4G"
    idle_timeout: int = 3600
    grading_socket: str = "/run/autograd-course/grading.sock"
    checkout: str = CHECKOUT

    @classmethod
    def from_environment(cls, env=os.environ) -> "Classroom":
        instructor = env.get("AUTOGRAD_HUB_INSTRUCTOR", "instructor")
        course = course_settings(os.path.join(CHECKOUT, "nbgrader_config.py"))
        return cls(instructor=instructor,
                   students=tuple(env.get("AUTOGRAD_HUB_STUDENTS", "student1 student2").split()),
                   ip=env.get("AUTOGRAD_HUB_IP", "127.0.0.1"), port=int(env.get("AUTOGRAD_HUB_PORT", "8000")),
                   state=env.get("AUTOGRAD_HUB_STATE", os.path.join(CHECKOUT, "hub", "state")),
                   prefix=env.get("AUTOGRAD_HUB_PREFIX", "/opt/autograd-course"),
                   course_dir=env.get("AUTOGRAD_HUB_COURSE", os.path.join(f"~{instructor}", "autograd-course")),
                   course_id=course["course_id"], exchange=course["exchange"],
                   memory=env.get("AUTOGRAD_HUB_MEMORY", cls.memory),
                   idle_timeout=int(env.get("AUTOGRAD_HUB_IDLE_TIMEOUT", cls.idle_timeout)),
                   grading_socket=env.get("AUTOGRAD_HUB_GRADING_SOCKET", cls.grading_socket))

    @property
    def url(self) -> str:
        return f"http://{self.ip}:{self.port}/"

    @property
    def student_env(self) -> str:
        return os.path.join(self.prefix, "student-env")

    @property
    def instructor_env(self) -> str:
        return os.path.join(self.prefix, "instructor-env")

    @property
    def activity_interval(self) -> int:
        """How often servers report activity and the culler looks (seconds): a quarter of the idle timeout."""
        return max(10, min(300, self.idle_timeout // 4))

    @property
    def config_dir(self) -> str:
        return os.path.join(self.prefix, "jupyter-config")

    @property
    def grading_course(self) -> str:
        """The root-owned folder with the course configuration the grading service grades with."""
        return os.path.join(self.state, "grading-course")

    def course_path(self) -> str:
        return os.path.expanduser(self.course_dir)


def course_settings(config_file: str) -> dict[str, str]:
    """The course id and exchange root the course's nbgrader_config.py sets: read there, not repeated here."""
    config = PyFileConfigLoader(os.path.basename(config_file), os.path.dirname(config_file)).load_config()
    return {"course_id": config.CourseDirectory.course_id, "exchange": config.Exchange.root}


def server(room: Classroom, user: str) -> dict:
    """What a user's single-user server runs and sees: the command, its environment, its root folder.
    The instructor's starts in the course directory (nbgrader reads nbgrader_config.py from where its
    server starts) and is told where the grading service listens."""
    shared = {"AUTOGRAD_COURSE_ID": room.course_id, "AUTOGRAD_COURSE_EXCHANGE": room.exchange}
    if user == room.instructor:
        role, python, root = "instructor", room.instructor_env, room.course_path()
        shared["AUTOGRAD_COURSE_GRADING_SERVICE"] = room.grading_socket
    else:
        role, python, root = "student", room.student_env, os.path.expanduser(f"~{user}")
    configs = [os.path.join(room.config_dir, name) for name in SERVER_CONFIG[role]]
    return {"cmd": [os.path.join(python, "bin", "jupyterhub-singleuser")],
            "environment": {**shared, "JUPYTER_CONFIG_PATH": ":".join(configs), "AUTOGRAD_HUB_ENV": python,
                            "PATH": f"{os.path.join(python, 'bin')}:/usr/local/bin:/usr/bin:/bin"},
            "notebook_dir": root, "first_workspace": FIRST_WORKSPACE if role == "student" else None}


def ensure_account(name: str) -> str | None:
    """Make the system user ``name`` if it is missing: its new password, or None for an existing one."""
    try:
        home = pwd.getpwnam(name).pw_dir
    except KeyError:
        subprocess.run([*USERADD, name], check=True, capture_output=True)
        password = secrets.token_urlsafe(9)
        subprocess.run(["chpasswd"], input=f"{name}:{password}\n", text=True, check=True)
        return password
    if os.path.isdir(home) and os.stat(home).st_mode & 0o077:
        os.chmod(home, 0o700)  # a home others can read would show them this user's notebooks and cache
    return None


def prepare_exchange(room: Classroom) -> None:
    """The exchange root (sticky) and the course's folder in it, the instructor's, before any student can."""
    os.makedirs(room.exchange, exist_ok=True)
    os.chmod(room.exchange, EXCHANGE_MODE)
    course = os.path.join(room.exchange, room.course_id)
    instructor = pwd.getpwnam(room.instructor)
    for folder, mode in ((course, OUTBOUND_MODE), (os.path.join(course, "outbound"), OUTBOUND_MODE),
                         (os.path.join(course, "inbound"), INBOUND_MODE)):
        os.makedirs(folder, exist_ok=True)
        os.chown(folder, instructor.pw_uid, instructor.pw_gid)
        os.chmod(folder, mode)


def prepare_course(room: Classroom) -> bool:
    """The instructor's course directory, copied from the checkout once (later runs keep it): new or not."""
    target = room.course_path()
    if os.path.exists(os.path.join(target, "nbgrader_config.py")):
        return False
    os.makedirs(target, exist_ok=True)
    for name in COURSE_FILES:
        source = os.path.join(room.checkout, name)
        if os.path.isdir(source):
            shutil.copytree(source, os.path.join(target, name), ignore=shutil.ignore_patterns(".ipynb_checkpoints"))
        else:
            shutil.copy(source, target)
    instructor = pwd.getpwnam(room.instructor)
    for folder, _, files in os.walk(target):
        for path in [folder, *(os.path.join(folder, f) for f in files)]:
            os.chown(path, instructor.pw_uid, instructor.pw_gid)
    os.chmod(target, 0o700)
    return True


def closed_to_others(path: str) -> list[str]:
    """The folders on the way to ``path`` that other users cannot pass through (no x for others)."""
    closed = []
    while path not in ("/", ""):
        if os.path.isdir(path) and not os.stat(path).st_mode & 0o001:
            closed.append(path)
        path = os.path.dirname(path)
    return closed


def instructors_group(room: Classroom) -> int:
    """The group that may read the grader's package and reach the grading service, with the instructor in it."""
    try:
        gid = grp.getgrnam(INSTRUCTORS).gr_gid
    except KeyError:
        subprocess.run(["groupadd", "--system", INSTRUCTORS], check=True, capture_output=True)
        gid = grp.getgrnam(INSTRUCTORS).gr_gid
    if room.instructor not in grp.getgrgid(gid).gr_mem:
        subprocess.run(["usermod", "--append", "--groups", INSTRUCTORS, room.instructor], check=True, capture_output=True)
    return gid


def grader_packages(room: Classroom) -> list[str]:
    """The instructor package in the instructor's environment: the grader's references."""
    return glob.glob(os.path.join(room.instructor_env, "lib", "python3*", "site-packages", "autograder"))


def _open_to_all(top: str) -> None:
    for folder, dirs, files in os.walk(top):
        os.chmod(folder, 0o755)
        for name in files:
            os.chmod(os.path.join(folder, name), 0o644)


def install_server_config(room: Classroom) -> None:
    """The servers' Jupyter configuration (jupyter-config/hub-*) under the prefix, readable by every account."""
    for name in {n for names in SERVER_CONFIG.values() for n in names}:  # over what is there: hubs may share a prefix
        shutil.copytree(os.path.join(room.checkout, "jupyter-config", name), os.path.join(room.config_dir, name),
                        dirs_exist_ok=True)
    _open_to_all(room.config_dir)


def prepare_environments(room: Classroom) -> list[str]:
    """The servers' Jupyter configuration copied under the prefix and JupyterLab's settings defaults into
    both environments (jupyter-config/hub-*), the grader package closed to all but
    the instructor's group (the rest of that environment is public packages, and grading kernels run its
    Python), the terminals' profile, the grading service's course configuration: what `make hub` says."""
    lines = []
    install_server_config(room)
    settings = os.path.join(room.checkout, "jupyter-config", "hub-lab-settings")
    for env in (room.student_env, room.instructor_env):  # JupyterLab's settings defaults, for every user
        overrides = os.path.join(env, "share", "jupyter", "lab", "settings", "overrides.d")
        os.makedirs(overrides, mode=0o755, exist_ok=True)
        for name in os.listdir(settings):
            os.chmod(shutil.copy(os.path.join(settings, name), overrides), 0o644)
    extension = os.path.join(room.checkout, "jupyter-config", "labextensions", LAB_EXTENSION)
    for env in (room.student_env, room.instructor_env):  # the course's JupyterLab plugins, as make lab loads them
        for name in RENAMED_LAB_EXTENSIONS:
            shutil.rmtree(os.path.join(env, "share", "jupyter", "labextensions", name), ignore_errors=True)
        target = os.path.join(env, "share", "jupyter", "labextensions", LAB_EXTENSION)
        shutil.copytree(extension, target, dirs_exist_ok=True)
        _open_to_all(target)
    gid = instructors_group(room)
    for package in grader_packages(room):
        for folder, _, files in os.walk(package):
            for path in [folder, *(os.path.join(folder, f) for f in files)]:
                os.chown(path, 0, gid)
        os.chmod(package, 0o750)
        lines.append(f"The grader's package, readable by the group {INSTRUCTORS} ({room.instructor}) and root "
                     f"only: {package}")
    with open(PROFILE, "w", encoding="utf-8") as handle:
        handle.write(PROFILE_TEXT)
    os.makedirs(room.grading_course, exist_ok=True)
    os.chmod(room.grading_course, 0o700)
    shutil.copy(os.path.join(room.checkout, "nbgrader_config.py"), room.grading_course)
    for python in (room.student_env, room.instructor_env):
        for folder in closed_to_others(os.path.dirname(os.path.realpath(os.path.join(python, "bin", "python")))):
            raise SystemExit(f"make hub: no account but root can reach {folder}, on the way to the Python "
                             f"that users' servers run ({python}): build the environments from a Python "
                             "installed where every account can run it (HUB_PYTHON=/usr/bin/python3.11)")
    return lines


def close_checkout(room: Classroom) -> list[str]:
    """The checkout holds the grader's references and solutions: closed to accounts other than its owner's
    and group (users' servers need nothing in it)."""
    mode = os.stat(room.checkout).st_mode
    if not mode & 0o007:
        return []
    os.chmod(room.checkout, mode & 0o7770)
    return [f"This checkout is now closed to other accounts (mode {mode & 0o7770:o}): {room.checkout}"]


# Run as a student by `check_closed`: each path it can list or read, one per line.
_PROBE = """import os, sys
for path in sys.argv[1:]:
    try:
        os.listdir(path) if os.path.isdir(path) else open(path, "rb").close()
        print(path)
    except OSError:
        pass
"""


def check_closed(room: Classroom) -> list[str]:
    """What a student's account can read of the course, tried as that account: nothing, or make hub stops."""
    student = room.students[0]
    account = pwd.getpwnam(student)
    others = [pwd.getpwnam(n).pw_dir for n in (*room.students[1:], room.instructor)]
    course = room.course_path()
    private = [os.path.join(room.checkout, "source"), os.path.join(room.checkout, "autograder"),
               os.path.join(course, "source"), os.path.join(course, "gradebook.db"), course,
               *grader_packages(room), room.state, *others]
    done = subprocess.run([os.path.join(room.student_env, "bin", "python"), "-I", "-c", _PROBE, *private],
                          user=account.pw_uid, group=account.pw_gid, extra_groups=[], cwd="/",
                          env={"HOME": account.pw_dir, "PATH": "/usr/bin:/bin"}, capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"make hub: the check as {student} failed to run:\n{done.stderr}")
    readable = done.stdout.split()
    if readable:
        raise SystemExit(f"make hub: {student} can read what students must not: {', '.join(readable)}")
    return [f"Checked as {student}: no student can read this checkout's source/ or autograder/, the course "
            "directory and its gradebook, the grader's package, the hub's state or another account's home"]


def grading_service(room: Classroom) -> list[str] | None:
    """The grading service's command (the hub runs it as root), or None where the instructor environment has
    none yet: then `autograd-course grade` on the hub refuses to grade unboxed unless told to."""
    command = [os.path.join(room.instructor_env, "bin", "autograd-course"), "grading-service"]
    if subprocess.run([*command, "--help"], capture_output=True).returncode:
        return None
    return [*command, "--socket", room.grading_socket, "--allow", room.instructor, "--group", INSTRUCTORS,
            "--course", room.grading_course]


def memory_limit(room: Classroom) -> str:
    """What `make hub` says of the per-user memory limit (classroom_spawner.py enforces it)."""
    try:
        from autograder.grading.kernels import cgroups
    except ImportError:
        return "WARNING: the memory limit per user needs the instructor environment's Python (make hub runs it)"
    which, missing = cgroups.available()
    if not which:
        return f"WARNING: no memory limit per user on this machine: {', '.join(missing)}"
    return f"Each user's server and its kernels: at most {room.memory} of memory (a control group, cgroup {which})"


def prepare(room: Classroom) -> list[str]:
    """Accounts, exchange, course directory, environments' access and checks: the lines `make hub` prints."""
    lines = [f"The class hub: {room.url}", "Accounts (log in with the user name and password):"]
    for name in (room.instructor, *room.students):
        password = ensure_account(name)
        role = "instructor (admin, formgrader)" if name == room.instructor else "student"
        lines.append(f"  {name:<16} {role:<32} " + (f"new password: {password}" if password
                                                     else "existing account: its own password"))
        if password:
            _remember(room, name, password)
    prepare_exchange(room)
    if prepare_course(room):
        lines.append(f"The instructor's course directory, copied from this checkout: {room.course_path()}")
    lines.append(f"The exchange: {os.path.join(room.exchange, room.course_id)} (inbound {INBOUND_MODE:o}, "
                 f"root {EXCHANGE_MODE:o})")
    lines += prepare_environments(room)
    lines += close_checkout(room)
    lines += check_closed(room)
    lines.append(memory_limit(room))
    lines.append(f"Idle servers are stopped after {room.idle_timeout} s")
    lines.append(f"Grading is boxed by the hub's grading service, at {room.grading_socket}" if grading_service(room)
                 else "WARNING: this checkout has no grading service (autograd-course grading-service): the hub "
                      "runs none, and `autograd-course grade` cannot box kernels for the instructor")
    return lines


def _remember(room: Classroom, name: str, password: str) -> None:
    os.makedirs(room.state, mode=0o700, exist_ok=True)
    path = os.path.join(room.state, "new-passwords.txt")
    with open(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600), "a") as handle:
        handle.write(f"{name} {password}\n")


if __name__ == "__main__":
    if os.geteuid() != 0:
        sys.exit("make hub: run it as root (sudo make hub): each user's server is started as that user")
    print("\n".join(prepare(Classroom.from_environment())), flush=True)
