"""The parallel grader gives the scores and the rows sequential nbgrader autograde gives, locally
and on Dask, resumes where it stopped, and keeps the gradebook whole.

One mixed batch of lesson 2 (solution, blank, wrong answers, a hang, a crash; one on time, one
late, one with a data file beside its notebook) is graded in copies of one scratch course: by
nbgrader's autograde one submission after another, by `grade` on local worker processes, by
`grade` on a Dask LocalCluster on loopback; and nbgrader's graded notebooks are recorded again by
the recorder alone, which must write nbgrader's rows.
"""
import contextlib
import dataclasses
import glob
import io
import os
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import nbformat
import psutil
import pytest
from nbgrader.api import Gradebook

from autograder import gradebook_scores

from autograder.authoring.release import generate_release
from autograder.authoring.output_parity import differences
from autograder.authoring.prove import scratch_course
from autograder.authoring.wrong_answers import build_submission, load_corpus, rounds, solution_cells, write_submission
from autograder.cli import main
from autograder.course_dir import Course
from autograder.grading.batch import planning
from autograder.grading.batch.recording import Recorder
from autograder.grading.batch.worker import Executed, digest
from conftest import ROOT
from gradebook_rows import gradebook_rows
import plain_nbgrader

LESSON = "02_backward"


def submissions(course):
    name = f"{LESSON}.ipynb"
    source = nbformat.read(os.path.join(course, "source", LESSON, name), as_version=4)
    release = nbformat.read(os.path.join(course, "release", LESSON, name), as_version=4)
    solutions = solution_cells(source)
    corpus = [a for a in load_corpus(os.path.join(ROOT, "tests", "wrong_submissions")) if a.assignment == LESSON]
    batch = {"solution": build_submission(release, solutions), "blank": release,
             "hangs": build_submission(release, {**solutions, "vjp": "def vjp(f, x, v):\n    while True:\n        pass"}),
             "crashes": build_submission(release, {**solutions, "two_losses": "import os\ndef two_losses(x):\n    os._exit(1)"})}
    for k, wrong in enumerate(rounds(corpus)[:2], 1):
        batch[f"wrong_{k}"] = build_submission(release, {**solutions, **{c: a.code for c, a in wrong.items()}})
    return batch


@pytest.fixture(scope="module")
def courses(tmp_path_factory):
    """Identical scratch courses with the same submitted batch (cells time out after 20 s: a drawing cell on
    a loaded machine can take 10, and a timeout there would differ between the copies)."""
    base = scratch_course(ROOT, str(tmp_path_factory.mktemp("parallel")), LESSON, cell_timeout=20)
    generate_release(base, [LESSON])
    for student, notebook in submissions(base).items():
        write_submission(base, student, LESSON, f"{LESSON}.ipynb", notebook)
    with open(os.path.join(base, "nbgrader_config.py"), "a") as config:  # a late notebook loses all its points
        config.write('\nc.LateSubmissionPlugin.penalty_method = "zero"\n')
    with Gradebook(Course(base).db_url) as gradebook:  # a due date, one submission on time and one late
        gradebook.update_or_create_assignment(LESSON, duedate="2026-03-01 12:00:00 UTC")
    for student, when in (("wrong_1", "2026-02-28 09:00:00 UTC"), ("solution", "2026-03-02 08:30:00 UTC")):
        with open(os.path.join(base, "submitted", student, LESSON, "timestamp.txt"), "w") as stamp:
            stamp.write(when)
    with open(os.path.join(base, "submitted", "wrong_2", LESSON, "measurements.csv"), "w") as data:
        data.write("x,y\n1,2\n")
    copies = {}
    for kind in ("sequential", "local", "dask", "killed", "recorded", "unpatched"):
        copies[kind] = str(tmp_path_factory.mktemp(kind))
        shutil.copytree(base, copies[kind], dirs_exist_ok=True)
    return copies


def cell_scores(root):
    return {student: gradebook_scores.cell_scores(root, LESSON, student) for student in Course(root).students(LESSON)}


def rows(root):
    return gradebook_rows(Course(root).db_url)


def autograded_files(root):
    """Each file of autograded/, with its permissions."""
    top = os.path.join(root, "autograded")
    return sorted((os.path.relpath(os.path.join(d, n), top), oct(os.stat(os.path.join(d, n)).st_mode))
                  for d, _, names in os.walk(top) for n in names)


@pytest.fixture(scope="module")
def sequential(courses):
    report = plain_nbgrader.autograde(courses["sequential"], LESSON, Course(courses["sequential"]).students(LESSON))
    assert not report.failed, report.failed
    return cell_scores(courses["sequential"])


@pytest.fixture(scope="module")
def graded_locally(courses):
    """The local copy graded by `grade` on two local workers: its exit code and what it printed."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = main(["--root", courses["local"], "grade", "--workers", "2"])
    return code, printed.getvalue()


def test_local_workers_give_the_sequential_scores_and_resume(courses, graded_locally, sequential, capsys):
    root = courses["local"]
    code, out = graded_locally
    assert code == 0
    assert cell_scores(root) == sequential
    assert rows(root) == rows(courses["sequential"])
    assert autograded_files(root) == autograded_files(courses["sequential"])
    assert sequential["solution"]["test_vjp"] == 2 and sequential["blank"]["test_vjp"] == 0
    assert sequential["hangs"]["test_vjp"] == 0 and sequential["crashes"]["test_two_losses"] == 0
    assert "graded 6, failed 0" in out
    # started again, it grades nothing, and neither loads nor starts anything heavy to find that out
    again = subprocess.run([sys.executable, "-X", "importtime", "-m", "autograder.cli", "--root", root, "grade"],
                           capture_output=True, text=True, timeout=120)
    assert again.returncode == 0 and "grading 0 submission(s)" in again.stdout, again.stdout + again.stderr
    imported = {line.split("|")[-1].strip() for line in again.stderr.splitlines() if line.startswith("import time:")}
    assert "autograder.grading.batch.planning" in imported
    assert not {"nbgrader", "torch", "sqlalchemy", "autograder.grading.kernels.factory",
                "multiprocessing.forkserver"} & imported
    # --student with --force regrades just that one
    assert main(["--root", root, "grade", "--force", "--student", "blank"]) == 0
    assert "graded 1, failed 0" in capsys.readouterr().out
    assert cell_scores(root) == sequential


def test_with_the_libraries_as_shipped_the_same_scores_rows_and_outputs(courses, graded_locally, sequential):
    """The switch of every library patch (grading/library_patches/): off, each library runs as shipped,
    and grading is the same, only slower."""
    root = courses["unpatched"]
    with open(os.path.join(root, "nbgrader_config.py"), "a") as config:
        config.write("\nc.GradingKernels.library_patches = False\n")
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["--root", root, "grade", "--workers", "2"]) == 0
    assert cell_scores(root) == sequential
    assert rows(root) == rows(courses["local"])
    for student in Course(root).students(LESSON):
        patched, unpatched = (nbformat.read(os.path.join(copy, "autograded", student, LESSON, f"{LESSON}.ipynb"),
                                            as_version=4) for copy in (courses["local"], root))
        assert differences(patched, unpatched) == [], student


def test_recording_what_nbgrader_graded_writes_nbgraders_rows_and_files(courses, sequential):
    """The recorder alone, given the notebooks nbgrader's autograde wrote, writes what it wrote:
    every row (grades, comments, timestamps, late penalties) and every file, in one transaction."""
    root, nbgrader_root = courses["recorded"], courses["sequential"]
    course = Course(root)

    def executed(student):
        graded = os.path.join(nbgrader_root, "autograded", student, LESSON, f"{LESSON}.ipynb")
        with open(graded, encoding="utf-8") as handle:
            return Executed(LESSON, student, {LESSON: handle.read()},
                            {LESSON: digest(course.path("submitted", student, LESSON, f"{LESSON}.ipynb"))})
    batch = [executed(student) for student in course.students(LESSON)]
    recorder = Recorder(course)
    assert set(recorder.record_batch(batch).values()) == {None}
    assert rows(root) == rows(nbgrader_root)
    assert autograded_files(root) == autograded_files(nbgrader_root)
    late = rows(root)[(LESSON, "solution")]
    assert late["notebooks"][LESSON]["late_submission_penalty"] == late["score"] > 0  # "zero": all of it
    assert rows(root)[(LESSON, "wrong_1")]["notebooks"][LESSON]["late_submission_penalty"] is None
    # recorded again (a regrade), a hand grade is kept and marked for review, as nbgrader's autograde does
    with Gradebook(course.db_url) as gradebook:
        hand_graded = min(g.name for g in gradebook.find_submission_notebook(LESSON, LESSON, "solution").grades)
        gradebook.find_grade(hand_graded, LESSON, LESSON, "solution").manual_score = 1.5
        gradebook.db.commit()
    assert recorder.record_batch([executed("solution")]) == {(LESSON, "solution"): None}
    recorder.close()
    with Gradebook(course.db_url) as gradebook:
        grade = gradebook.find_grade(hand_graded, LESSON, LESSON, "solution")
        assert grade.manual_score == 1.5 and grade.needs_manual_grade
    # a submission changed since it was graded is refused, and the others of its batch are kept
    changed = dataclasses.replace(executed("hangs"), digests={LESSON: "0" * 64})
    assert Recorder(course).record_batch([executed("blank"), changed]) == {
        (LESSON, "blank"): None, (LESSON, "hangs"): "the submission changed while it was being graded: grade it again"}


def test_an_interrupted_batch_keeps_what_it_recorded(courses, graded_locally, tmp_path):
    root = shutil.copytree(courses["local"], str(tmp_path / "local"))  # the other tests' copy stays whole
    course = Course(root)
    shutil.rmtree(os.path.join(root, "autograded", "wrong_1"))  # as if stopped before recording it
    todo, done = planning.plan(course)
    assert todo == [(LESSON, "wrong_1")] and len(done) == 5


def _worker_that_cannot_see(hidden: list[str], scheduler: str) -> subprocess.Popen:
    """``dask worker`` in a mount namespace of its own in which each folder of ``hidden`` is an empty tmpfs."""
    mounts = " && ".join(f"mount -t tmpfs -o size=1m none {shlex.quote(path)}" for path in hidden)
    worker = [os.path.join(os.path.dirname(sys.executable), "dask"), "worker", scheduler, "--nworkers", "2",
              "--nthreads", "1", "--no-dashboard", "--preload", "autograder.grading.batch.cluster_worker"]
    return subprocess.Popen(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                             f"{mounts} && exec {shlex.join(worker)}"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.STDOUT, start_new_session=True)


def test_a_dask_worker_that_cannot_see_the_course_grades_it(courses, sequential, tmp_path_factory):
    """The course folder, every copy of it and the repository's lessons are empty folders for the
    workers, and no gradebook is reachable: the tasks carry all they need."""
    distributed = pytest.importorskip("distributed")
    root = courses["dask"]
    hidden = [str(tmp_path_factory.getbasetemp()), os.path.join(ROOT, "source"), os.path.join(ROOT, "release")]
    gradebooks_before = set(glob.glob(os.path.join(tempfile.gettempdir(), "autograd-gradebook-*")))
    with distributed.LocalCluster(n_workers=0, host="127.0.0.1", dashboard_address=None) as cluster, \
            distributed.Client(cluster.scheduler_address) as client:
        worker = _worker_that_cannot_see(hidden, cluster.scheduler_address)
        try:
            client.wait_for_workers(2, timeout=180)
            seen = client.run(lambda: [os.path.exists(p) for p in (root, os.path.join(ROOT, "source", LESSON))])
            assert list(seen.values()) == [[False, False]] * 2
            warm = client.run(lambda: "autograder.grading.batch.warm_workers" in sys.modules)
            assert all(warm.values())  # the preload ran: warm before the first task
            assert main(["--root", root, "grade", "--scheduler", cluster.scheduler_address]) == 0
        finally:
            os.killpg(worker.pid, signal.SIGTERM)
            worker.wait(timeout=60)
    # the workers' private gradebooks were in their own Dask folders, gone with them
    assert set(glob.glob(os.path.join(tempfile.gettempdir(), "autograd-gradebook-*"))) <= gradebooks_before
    assert cell_scores(root) == sequential
    assert rows(root) == rows(courses["sequential"])
    for student in Course(root).students(LESSON):  # a Dask worker's own zygote keeps every figure too
        name = os.path.join("autograded", student, LESSON, f"{LESSON}.ipynb")
        assert differences(nbformat.read(os.path.join(courses["sequential"], name), as_version=4),
                           nbformat.read(os.path.join(root, name), as_version=4)) == [], student


def test_a_local_pools_scratch_folder_is_the_graders_alone_and_goes_with_the_pool():
    """Its workers' drawings and private gradebooks: a worker ends with os._exit and removes nothing."""
    from autograder.grading.batch.fan_out import local_executor
    with local_executor(2) as pool:
        folder = pool.scratch
        assert os.stat(folder).st_mode & 0o777 == 0o700 and os.stat(folder).st_uid == os.getuid()
        assert pool._initargs[-1] == folder  # each worker is handed it as it starts
    assert not os.path.exists(folder)


def test_the_fork_server_ends_without_its_teardown():
    """The local workers' fork server holds torch and nbgrader: when the command ends, it exits at once
    (``fork_server_exit``, among its preloads) instead of freeing every object first."""
    import multiprocessing.forkserver
    from autograder.grading.batch.warm_start import worker_context
    worker_context()
    assert "autograder.grading.batch.fork_server_exit" in multiprocessing.forkserver._forkserver._preload_modules
    script = ("import atexit; atexit.register(print, 'an earlier exit handler ran')\n"
              "import autograder.grading.batch.fork_server_exit\n"
              "class Held:\n    def __del__(self): print('torn down')\n"
              "held = Held()\nraise SystemExit(3)")
    ended = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (ended.returncode, ended.stdout, ended.stderr) == (0, "", "")


def test_a_killed_batch_leaves_no_process_behind(courses, tmp_path):
    """Killed outright (SIGKILL, out of memory), the command runs no clean-up: its workers, their
    fork server, the zygote and the kernels must end with it rather than wait forever, and the
    workers' scratch folder must not stay behind."""
    command = subprocess.Popen([os.path.join(os.path.dirname(sys.executable), "autograd-course"), "--root",
                                courses["killed"], "grade", "--workers", "2"],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                               env={**os.environ, "TMPDIR": str(tmp_path)})  # its scratch folders made here
    for line in command.stdout:
        if line.startswith("[1/"):  # a result: workers, kernels and both warm parents are all running
            break
    left = psutil.Process(command.pid).children(recursive=True)
    assert len(left) >= 4
    assert len(glob.glob(str(tmp_path / "autograd-workers-*"))) == 1
    command.kill()
    command.wait()
    deadline = time.monotonic() + 60
    while left and time.monotonic() < deadline:
        left = [p for p in left if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        time.sleep(0.5)
    assert not left, [" ".join(p.cmdline())[:120] for p in left]
    assert glob.glob(str(tmp_path / "autograd-workers-*")) == []


def test_a_local_worker_collects_its_own_garbage_and_never_its_fork_servers():
    """Forked from a server that warmed with ``preloads.warming``: the collector is on, torch's objects frozen."""
    import gc
    from autograder.grading.batch.fan_out import local_executor
    with local_executor(1) as pool:
        assert pool.submit(gc.isenabled).result() and pool.submit(gc.get_freeze_count).result() > 100_000


# evaluated in the worker (a builtin's call, so the worker imports no test module, nor conftest's home)
COMPILED_THERE = ("(set(__import__('autograder.grading.library_patches.output_schema', fromlist=['_'])._compiled), "
                  "{key[3] for key in __import__('nbformat.validator', fromlist=['_']).validators "
                  "if key[0] == 'fastjsonschema'})")


def test_a_local_worker_starts_with_nbformats_checks_compiled_by_its_fork_server():
    from autograder.grading.library_patches import output_schema
    from autograder.grading.batch.fan_out import local_executor
    with local_executor(1) as pool:
        parts, whole = pool.submit(eval, COMPILED_THERE).result()  # its first task: nothing checked yet
    assert parts >= set(output_schema.AHEAD) and whole == {False, True}
