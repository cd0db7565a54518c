"""The class hub's people, folders and servers: what `make hub`, hub/jupyterhub_config.py and the tests share.

One instructor and a list of students, each a system user with a private home (mode 0700), so no
student can read a classmate's notebooks or nbgrader's cache of their submissions (whose secret
names their feedback). The instructor's course directory (source/, the gradebook, submitted/,
autograded/, feedback/) is a copy of this checkout's course in the instructor's home. The exchange
is a sticky, world-writable folder (1777): nbgrader needs every student to write there, and the
sticky bit stops anyone from moving the course's folder in it out of the way. Students' servers run
the student environment (built from binder/, `student_env.py`) and see nbgrader's Assignments tab and
Validate; the instructor's runs the instructor tools and formgrader on the course directory.

Settings, read from the environment by `Classroom.from_environment` (their defaults after the =):
    AUTOGRAD_HUB_INSTRUCTOR=instructor       the instructor's user name (the hub's admin)
    AUTOGRAD_HUB_STUDENTS="student1 student2" the students' user names
    AUTOGRAD_HUB_IP=127.0.0.1, AUTOGRAD_HUB_PORT=8000  where the hub listens
    AUTOGRAD_HUB_STATE=<checkout>/hub/state  the hub's database, cookie secret, log, new passwords
    AUTOGRAD_HUB_STUDENT_ENV=<checkout>/hub/student-env  the students' Python environment (readable by them)
    AUTOGRAD_HUB_COURSE=~instructor/autograd-course  the instructor's course directory
    AUTOGRAD_COURSE_EXCHANGE (nbgrader_config.py's default)  nbgrader's exchange
"""
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
INBOUND_MODE, OUTBOUND_MODE, EXCHANGE_MODE = 0o2733, 0o755, 0o1777  # nbgrader's inbound/outbound; a sticky root


@dataclass(frozen=True)
class Classroom:
    instructor: str
    students: tuple[str, ...]
    ip: str
    port: int
    state: str
    student_env: str
    course_dir: str
    course_id: str
    exchange: str
    instructor_env: str = sys.prefix
    checkout: str = CHECKOUT

    @classmethod
    def from_environment(cls, env=os.environ) -> "Classroom":
        instructor = env.get("AUTOGRAD_HUB_INSTRUCTOR", "instructor")
        state = env.get("AUTOGRAD_HUB_STATE", os.path.join(CHECKOUT, "hub", "state"))
        course = course_settings(os.path.join(CHECKOUT, "nbgrader_config.py"))
        return cls(instructor=instructor,
                   students=tuple(env.get("AUTOGRAD_HUB_STUDENTS", "student1 student2").split()),
                   ip=env.get("AUTOGRAD_HUB_IP", "127.0.0.1"), port=int(env.get("AUTOGRAD_HUB_PORT", "8000")),
                   state=state, student_env=env.get("AUTOGRAD_HUB_STUDENT_ENV", os.path.join(CHECKOUT, "hub", "student-env")),
                   course_dir=env.get("AUTOGRAD_HUB_COURSE", os.path.join(f"~{instructor}", "autograd-course")),
                   course_id=course["course_id"], exchange=course["exchange"])

    @property
    def url(self) -> str:
        return f"http://{self.ip}:{self.port}/"

    def course_path(self) -> str:
        return os.path.expanduser(self.course_dir)


def course_settings(config_file: str) -> dict[str, str]:
    """The course id and exchange root the course's nbgrader_config.py sets: read there, not repeated here."""
    config = PyFileConfigLoader(os.path.basename(config_file), os.path.dirname(config_file)).load_config()
    return {"course_id": config.CourseDirectory.course_id, "exchange": config.Exchange.root}


def server(room: Classroom, user: str) -> dict:
    """What a user's single-user server runs and sees: the command, its environment, its root folder."""
    shared = {"AUTOGRAD_COURSE_ID": room.course_id, "AUTOGRAD_COURSE_EXCHANGE": room.exchange}
    if user == room.instructor:
        config, python, root = "instructor", room.instructor_env, room.course_path()
    else:
        config, python, root = "hub-student", room.student_env, os.path.expanduser(f"~{user}")
    return {"cmd": [os.path.join(python, "bin", "jupyterhub-singleuser")],
            "environment": {**shared, "JUPYTER_CONFIG_PATH": os.path.join(room.checkout, "jupyter-config", config),
                            "PATH": f"{os.path.join(python, 'bin')}:/usr/local/bin:/usr/bin:/bin"},
            "notebook_dir": root}


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


def readable_by_others(path: str) -> bool:
    """Whether users other than root and the file's group could read ``path`` (and so the grader's references)."""
    while path not in ("/", ""):
        mode = os.stat(path).st_mode
        if not mode & 0o005:
            return False
        path = os.path.dirname(path)
    return True


def prepare(room: Classroom) -> list[str]:
    """Accounts, exchange and course directory, made where missing; the lines `make hub` prints."""
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
    for folder in closed_to_others(os.path.realpath(sys.base_prefix)):
        lines.append(f"WARNING: no account but root can reach {folder}, on the way to this Python "
                     f"({sys.base_prefix}): users' servers cannot start. Install Python where every user can "
                     f"run it (/usr, /opt), or let them pass: chmod o+x {folder}")
    if readable_by_others(os.path.join(room.checkout, "autograder")):
        lines.append(f"WARNING: students can read {room.checkout}, which holds the grader's references: "
                     "on a real class, keep the checkout where only root and the instructor can read it")
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
