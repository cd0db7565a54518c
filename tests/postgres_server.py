"""A throwaway PostgreSQL server for tests: a temporary data directory, loopback, a free port.

It uses the distribution's own binaries (Debian puts them in /usr/lib/postgresql/<version>/bin; the
``postgresql`` package, which .ci/run installs when it can). ``initdb`` refuses to run as root, so a
root test runs the server as the ``postgres`` user (``nobody`` if there is none), which owns the data
directory. Nothing outside that directory is touched, and everything is removed at the end.
"""
import glob
import os
import pwd
import secrets
import shutil
import socket
import subprocess
import tempfile
from contextlib import contextmanager
from dataclasses import dataclass

HOST = "127.0.0.1"
SERVER_USERS = ("postgres", "nobody")
INSTALL_HINT = "Debian's postgresql package (.ci/run installs it as root; else sudo apt-get install -y postgresql)"


@dataclass(frozen=True)
class RunningPostgres:
    host: str
    port: int
    user: str
    password: str
    database: str

    @property
    def url(self) -> str:
        """An SQLAlchemy URL, as ``c.CourseDirectory.db_url`` takes it."""
        return f"postgresql+psycopg2://{self.user}:{self.password}@{self.host}:{self.port}/{self.database}"

    def connect(self):
        import psycopg2
        return psycopg2.connect(host=self.host, port=self.port, user=self.user, password=self.password,
                                dbname=self.database)


def binary(name: str) -> str | None:
    """``name`` on PATH, else in the newest /usr/lib/postgresql/<version>/bin."""
    found = shutil.which(name)
    if found:
        return found
    versions = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"),
                      key=lambda p: int(p.split("/")[4]) if p.split("/")[4].isdigit() else 0)
    return versions[-1] if versions else None


def missing() -> str | None:
    """Why no server can be started here, or None."""
    absent = [name for name in ("initdb", "pg_ctl") if binary(name) is None]
    return f"{' and '.join(absent)} not found: install {INSTALL_HINT}" if absent else None


def _server_user() -> pwd.struct_passwd | None:
    """Who runs the server: this user, or when root an unprivileged account."""
    if os.geteuid() != 0:
        return None
    for name in SERVER_USERS:
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise RuntimeError(f"running as root and none of the users {SERVER_USERS} exists to run PostgreSQL")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind((HOST, 0))
        return probe.getsockname()[1]


def _run(command: list[str], account, cwd: str) -> None:
    owner = {"user": account.pw_uid, "group": account.pw_gid, "extra_groups": []} if account else {}
    env = dict(os.environ, LC_ALL="C", HOME=cwd)
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, **owner)
    if done.returncode:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stdout}{done.stderr}")


@contextmanager
def postgres_server(database: str = "gradebook", startup_timeout: int = 60, durable: bool = False):
    """Start a server with one empty ``database``; yields a RunningPostgres; stops and deletes it after.

    Tests skip fsync; ``durable`` keeps it, as a real server does (benchmarks/recording.py)."""
    why = missing()
    if why:
        raise RuntimeError(why)
    account = _server_user()
    home = tempfile.mkdtemp(prefix="autograd-course-postgres-")
    data, log = os.path.join(home, "data"), os.path.join(home, "server.log")
    password, port, user = secrets.token_hex(16), free_port(), "grader"
    password_file = os.path.join(home, "password")
    with open(password_file, "w") as handle:
        handle.write(password)
    if account:
        os.chown(home, account.pw_uid, account.pw_gid)
        os.chown(password_file, account.pw_uid, account.pw_gid)
    started = False
    try:
        _run([binary("initdb"), "-D", data, "-U", user, "--pwfile", password_file, "--auth", "scram-sha-256",
              "-E", "UTF8", "--no-sync"], account, home)
        # loopback TCP only; the Unix socket lives in the data directory, not in /var/run
        options = f"-c listen_addresses={HOST} -p {port} -k {data}" + ("" if durable else " -c fsync=off")
        _run([binary("pg_ctl"), "-D", data, "-l", log, "-o", options, "-w", "-t", str(startup_timeout), "start"],
             account, home)
        started = True
        server = RunningPostgres(HOST, port, user, password, "postgres")
        admin = server.connect()
        admin.autocommit = True
        with admin.cursor() as cursor:
            cursor.execute(f'CREATE DATABASE "{database}"')
        admin.close()
        yield RunningPostgres(HOST, port, user, password, database)
    finally:
        if started:
            _run([binary("pg_ctl"), "-D", data, "-m", "fast", "-w", "stop"], account, home)
        shutil.rmtree(home, ignore_errors=True)
