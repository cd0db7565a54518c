"""The class hub: JupyterHub, each user's JupyterLab started as that user's own system user.

`make hub` runs it (as root) after hub/classroom.py has made the accounts, the exchange and the
instructor's course directory; every setting it reads is listed in classroom.py's docstring.
Authentication is the system's own (PAM: each account's password). To use the university's
instead, name its authenticator here, e.g. AUTOGRAD_HUB_AUTHENTICATOR=generic-oauth (the
`oauthenticator` package: GitHub, Google, Azure AD, any OpenID Connect) or lti13 (the
`jupyterhub-ltiauthenticator` package, launched from Canvas or Moodle), with that package's own
settings added below; users still need system accounts, which the hub then creates
(create_system_users) with classroom.USERADD.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from classroom import USERADD, Classroom, grading_service, server  # noqa: E402

c = get_config()  # noqa: F821  (provided by JupyterHub when it loads this file)
room = Classroom.from_environment()
os.makedirs(room.state, mode=0o700, exist_ok=True)

# Where it listens: the public URL on room.ip, the hub's and the proxy's APIs on loopback beside it.
c.JupyterHub.bind_url = room.url
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = room.port + 1
c.ConfigurableHTTPProxy.api_url = f"http://127.0.0.1:{room.port + 2}"
c.ConfigurableHTTPProxy.command = [os.path.join(HERE, "node_modules", ".bin", "configurable-http-proxy")]
c.ConfigurableHTTPProxy.pid_file = os.path.join(room.state, "proxy.pid")
c.JupyterHub.db_url = f"sqlite:///{os.path.join(room.state, 'jupyterhub.sqlite')}"
c.JupyterHub.cookie_secret_file = os.path.join(room.state, "jupyterhub_cookie_secret")
c.JupyterHub.template_paths = [os.path.join(HERE, "templates")]  # its pages in colours that meet WCAG 2.1 AA

# Who may log in: the instructor (the hub's admin) and the students, with their system passwords.
c.JupyterHub.authenticator_class = os.environ.get("AUTOGRAD_HUB_AUTHENTICATOR", "pam")
c.Authenticator.admin_users = {room.instructor}
c.Authenticator.allowed_users = {room.instructor, *room.students}
c.LocalAuthenticator.create_system_users = True
c.LocalAuthenticator.add_user_cmd = USERADD


def _configure_server(spawner) -> None:
    """The student environment for students, the instructor tools on the course for the instructor."""
    settings = server(room, spawner.user.name)
    spawner.cmd = settings["cmd"]
    spawner.environment = {**spawner.environment, **settings["environment"]}
    spawner.notebook_dir = settings["notebook_dir"]
    spawner.first_workspace = settings["first_workspace"]


# Each user's JupyterLab is a local process run as that user, in a control group of its own with a
# memory cap, started in its root folder (classroom_spawner.py).
c.JupyterHub.spawner_class = "classroom_spawner.ClassroomSpawner"
c.Spawner.pre_spawn_hook = _configure_server
c.Spawner.mem_limit = room.memory
c.Spawner.default_url = "/lab"
c.Spawner.start_timeout = 120  # seconds: the first start of a server imports JupyterLab and nbgrader
c.Spawner.http_timeout = 120

# Activity is reported often enough for the culler to see it well within its timeout.
c.JupyterHub.last_activity_interval = room.activity_interval
c.Spawner.environment = {"JUPYTERHUB_ACTIVITY_INTERVAL": str(room.activity_interval)}

# Services the hub runs (as root) and restarts if they end: the idle culler stops servers nobody has
# used for room.idle_timeout seconds; the grading service grades the instructor's batches, each kernel
# in its box, for the instructor's account only (autograder/grading/batch/).
c.JupyterHub.services = [
    {"name": "idle-culler",
     "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={room.idle_timeout}",
                 f"--cull-every={room.activity_interval}"]},
]
if grading_service(room):  # make hub says when the checkout has none
    c.JupyterHub.services.append({"name": "grading", "command": grading_service(room)})
c.JupyterHub.load_roles = [{"name": "idle-culler", "services": ["idle-culler"],
                            "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"]}]
