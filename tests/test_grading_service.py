"""Grading for an instructor who is not root: the grading service boxes every kernel.

The instructor is a real account (useradd) that owns its course directory. It runs
``autograd-course grade`` itself, as the hub's instructor does in their terminal, with the service's
socket in its environment (as the hub sets it); the service runs as root with a configuration only
root can change. A submission that hunts for the course directory (every process's working folder
and root in /proc, its parent's, the course's very path) and runs ``source/``'s solution cells scores
0, and nothing in the course directory changes; the solution scores full marks. Without the service,
``grade`` refuses, saying why; the service refuses another account and a request that is not a task.
"""
import hashlib
import json
import os
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import time

import nbformat
import pytest

from autograder import gradebook_scores
from autograder.authoring.wrong_answers import build_submission, solution_cells
from autograder.grading.batch import service_protocol, task_wire
from autograder.grading.batch.tasks import AssignmentRows, Task
from conftest import ROOT
from system_accounts import cannot_make_accounts, make_account, python_reachable, remove_account, run_as

LESSON = "04_zero_grad"
TOOLS = os.path.join(os.path.dirname(sys.executable))
# Where a kernel graded unboxed would find the course: every process's working folder and root, its
# parent's, and the path itself (a cheat may know it). What it finds, it runs; then it leaves a mark.
HUNTER = """import glob, json, os
places = {COURSE!r}
for pid in [p for p in os.listdir('/proc') if p.isdigit()] + [str(os.getppid())]:
    for link in ('cwd', 'root'):
        try:
            places.append(os.readlink(f'/proc/{{pid}}/{{link}}'))
        except OSError:
            pass
found = []
for place in places:
    for depth in ('', '*', '*/*', '*/*/*'):
        found_here = glob.glob(os.path.join(place, depth, 'source', '*', '*.ipynb'))
        if found_here:
            break
    for path in found_here[:5]:
        try:
            cells = json.load(open(path))['cells']
        except OSError:
            continue
        found.append(path)
        for cell in cells:
            if 'BEGIN SOLUTION' in ''.join(cell['source']):
                exec(''.join(cell['source']), globals())
    try:
        open(os.path.join(place, 'HUNTED'), 'w').write('a kernel wrote here')
    except OSError:
        pass
print('the hunt found', found)
"""


def test_a_task_crosses_as_plain_data_and_is_checked_on_arrival():
    rows = {"assignment": [{"id": "a1", "name": LESSON, "duedate": None, "course_id": "c"}],
            "notebook": [{"id": "n1", "name": LESSON, "assignment_id": "a1", "kernelspec": "{}"}]}
    task = Task(LESSON, "ada", {LESSON: b'{"cells": []}'}, {"data/notes.txt": b"hello"},
                AssignmentRows(LESSON, rows, "forged-digest", (LESSON,)), config={"c": "not sent"})
    sent = task_wire.task_to_json(task)
    assert b"not sent" not in sent  # the configuration never crosses: the service grades with its own
    arrived = task_wire.task_from_json(sent, "the service's", 1024)
    assert (arrived.notebooks, arrived.files, arrived.config) == (task.notebooks, task.files, "the service's")
    assert arrived.assignment.rows == rows and arrived.assignment.digest != "forged-digest"
    refusals = {"student": {"student": "../../etc"}, "path": {"files": {"../x": ""}},
                "absolute": {"files": {"/etc/passwd": ""}}, "table": {"rows": {"student": []}},
                "column": {"rows": {**rows, "notebook": [{"evil": 1}]}}, "other lesson": {"lesson": "01_graph"},
                "size": {"notebooks": {LESSON: "QUFB" * 400}}}
    for why, change in refusals.items():
        with pytest.raises(task_wire.BadTask):
            task_wire.task_from_json(json.dumps({**json.loads(sent), **change}).encode(), None, 1024)
        print("refused:", why)


# --- the service, as root, and an instructor who is not ------------------------------------------

pytestmark_accounts = pytest.mark.skipif(cannot_make_accounts() is not None, reason=f"{cannot_make_accounts()}")


def _digest(folder: str) -> str:
    found = hashlib.sha256()
    for where, folders, files in sorted(os.walk(folder)):
        folders.sort()
        for name in sorted(files):
            found.update(os.path.join(where, name).encode())
            with open(os.path.join(where, name), "rb") as handle:
                found.update(handle.read())
    return found.hexdigest()


@pytest.fixture(scope="module")
def service_class():
    """An instructor and a student account, the instructor's course with three submissions, the service."""
    tag = secrets.token_hex(3)
    instructor, other = f"agt{tag}", f"agu{tag}"
    work = tempfile.mkdtemp(prefix="autograd-service-test-")  # not under pytest's folder, which is root's alone
    os.chmod(work, 0o755)
    reachable = python_reachable(sys.executable)
    reachable.__enter__()
    service = None
    try:
        make_account(instructor)
        make_account(other)
        home = os.path.expanduser(f"~{instructor}")
        course = os.path.join(home, "course")
        os.makedirs(course)
        shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), course)
        shutil.copytree(os.path.join(ROOT, "source", LESSON), os.path.join(course, "source", LESSON))
        subprocess.run(["chown", "-R", f"{instructor}:{instructor}", course], check=True)
        released = run_as(instructor, os.path.join(TOOLS, "autograd-course"), "release", LESSON, cwd=course)
        assert released.returncode == 0, released.stdout + released.stderr
        release = nbformat.read(os.path.join(course, "release", LESSON, f"{LESSON}.ipynb"), as_version=4)
        solutions = solution_cells(nbformat.read(os.path.join(course, "source", LESSON, f"{LESSON}.ipynb"), as_version=4))
        hunt = HUNTER.format(COURSE=[course, home, "/home"])  # in every answer cell, in place of an answer
        hunter = build_submission(release, {cell: hunt for cell in solutions})
        for student, notebook in {"solver": build_submission(release, solutions), "blank": release,
                                  "hunter": hunter}.items():
            folder = os.path.join(course, "submitted", student, LESSON)
            os.makedirs(folder)
            nbformat.write(notebook, os.path.join(folder, f"{LESSON}.ipynb"))
        subprocess.run(["chown", "-R", f"{instructor}:{instructor}", course], check=True)
        settings = os.path.join(work, "grading")  # root's own copy of the configuration it grades with
        os.makedirs(settings)
        shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), settings)
        sock = os.path.join(work, "run", "grading.sock")
        log = open(os.path.join(work, "service.log"), "w")
        service = subprocess.Popen([os.path.join(TOOLS, "autograd-course"), "grading-service", "--socket", sock,
                                    "--allow", instructor, "--course", settings, "--workers", "2"],
                                   stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        for _ in range(600):
            if os.path.exists(sock) or service.poll() is not None:
                break
            time.sleep(0.1)
        assert os.path.exists(sock), open(log.name).read()
        yield {"instructor": instructor, "other": other, "course": course, "socket": sock, "log": log.name,
               "env": {"AUTOGRAD_COURSE_GRADING_SERVICE": sock}}
    finally:
        if service is not None:
            service.kill()
            service.wait()
        remove_account(instructor)
        remove_account(other)
        reachable.__exit__(None, None, None)
        shutil.rmtree(work, ignore_errors=True)


def _hunt_output(course: str) -> str:
    """What the hunter's first answer cell printed when it was graded."""
    graded = nbformat.read(os.path.join(course, "autograded", "hunter", LESSON, f"{LESSON}.ipynb"), as_version=4)
    return next(o["text"] for c in graded.cells if c.cell_type == "code" for o in c.outputs
                if o.get("name") == "stdout" and "the hunt found" in o.get("text", ""))


def _grade(service_class, *extra, env=None):
    return run_as(service_class["instructor"], os.path.join(TOOLS, "autograd-course"), "grade", LESSON, *extra,
                  cwd=service_class["course"], env=env)


@pytestmark_accounts
def test_without_root_or_a_service_grade_refuses_and_says_why(service_class):
    done = _grade(service_class)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Refusing to grade" in done.stdout and "--unboxed-kernels-can-read-my-files" in done.stdout
    assert "source/ (the solutions)" in done.stdout
    assert not os.path.exists(os.path.join(service_class["course"], "autograded"))


@pytestmark_accounts
def test_the_service_grades_for_the_instructor_with_every_kernel_boxed(service_class):
    course = service_class["course"]
    before = _digest(os.path.join(course, "source")), _digest(os.path.join(course, "release"))
    done = _grade(service_class, env=service_class["env"])
    print(done.stdout, done.stderr, open(service_class["log"]).read(), sep="\n")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "grading 3 submission(s) on the grading service at" in done.stdout
    assert "Kernels are boxed: each has its own root, user" in done.stdout
    scores = {row["student"]: (row["code_score"], row["max_code_score"]) for row in gradebook_scores.scores(course)}
    full = scores["solver"][1]
    assert full > 0 and scores == {"solver": (full, full), "blank": (0, full), "hunter": (0, full)}
    assert "the hunt found []" in _hunt_output(course)
    assert (_digest(os.path.join(course, "source")), _digest(os.path.join(course, "release"))) == before
    marks = [os.path.join(w, f) for w, _, files in os.walk(os.path.dirname(course)) for f in files if f == "HUNTED"]
    assert marks == []
    owners = {os.stat(os.path.join(w, f)).st_uid for w, _, files in os.walk(course) for f in files}
    assert owners == {os.stat(course).st_uid}  # everything written in the course is the instructor's own


@pytestmark_accounts
def test_the_service_refuses_other_accounts_and_requests_that_are_not_tasks(service_class):
    probe = ("import socket, sys\nfrom autograder.grading.batch import service_protocol as p\n"
             "s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(p.receive(s, 1 << 20))\n"
             "p.send(s, {'student': '../../root'}); print(p.receive(s, 1 << 20))\n")
    for user, expected in ((service_class["other"], "does not grade for"), (service_class["instructor"], "hello")):
        done = run_as(user, sys.executable, "-c", probe, service_class["socket"], env={"PYTHONPATH": ROOT})
        assert expected in done.stdout, done.stdout + done.stderr
    assert "lesson None is not a plain name" in done.stdout.splitlines()[-1]
    again = run_as(service_class["instructor"], sys.executable, "-c",
                   "import socket, sys\nfrom autograder.grading.batch import service_protocol as p\n"
                   "s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(p.receive(s, 1 << 20))",
                   service_class["socket"], env={"PYTHONPATH": ROOT})
    assert "hello" in again.stdout  # still serving


def test_a_forged_peer_cannot_claim_another_uid():
    left, right = socket.socketpair(socket.AF_UNIX)
    with left, right:
        assert service_protocol.peer_uid(left) == os.geteuid()


@pytestmark_accounts
def test_the_same_hunter_unboxed_takes_the_solutions_so_the_box_is_what_stopped_it(service_class):
    """The control: graded without the box, by the instructor's say-so, the hunter finds source/ and
    scores full marks, and leaves its mark in the course. (Run last: it changes the course.)"""
    course = service_class["course"]
    done = _grade(service_class, "--force", "--student", "hunter", "--unboxed-kernels-can-read-my-files")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Kernels are NOT boxed: namespaces (grading is not running as root" in done.stdout
    row, = [r for r in gradebook_scores.scores(course) if r["student"] == "hunter"]
    assert f"the hunt found ['{course}/source/{LESSON}/{LESSON}.ipynb'" in _hunt_output(course)
    assert row["code_score"] == row["max_code_score"] > 0
    assert os.path.exists(os.path.join(course, "HUNTED"))
