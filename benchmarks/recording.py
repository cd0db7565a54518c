"""How many graded submissions per second the recorder writes, into SQLite and into PostgreSQL.

    .venv/bin/python benchmarks/recording.py [--sizes 100 1000 5000]

First, untimed: a scratch course with all four lessons released, and a solution, a blank and a wrong
answer of each lesson graded once by `autograd-course grade` (kernels run only here). Then for
each database and each size N, N already-executed submissions of all four lessons (those twelve, in
turn, under new student ids, each as its worker returned it) are recorded as `grade` records them:
`Recorder.record_batch`, up to `GradingBatch.recording_batch` per transaction, with nothing else running. The table gives seconds,
submissions per second and the command's CPU per submission; "scores" says whether every recorded
submission has the total its graded original has. PostgreSQL is a throwaway server on loopback
(tests/postgres_server.py) with fsync on, as a real server runs; SQLite is the course's file.
"""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time

import nbformat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from autograder.authoring.release import generate_release  # noqa: E402
from autograder.course_dir import Course, assignments  # noqa: E402
from autograder.grading.batch.settings import GradingBatch  # noqa: E402
from autograder.grading.batch.recording import Recorder  # noqa: E402
from autograder.grading.batch.autograde_steps import cell_results  # noqa: E402
from autograder.grading.batch.worker import Executed  # noqa: E402
from grading import make_course  # noqa: E402  (benchmarks/grading.py: the same submissions)
from postgres_server import missing, postgres_server  # noqa: E402

BIN = os.path.dirname(sys.executable)
KINDS_PER_LESSON = 3  # solution, blank, a wrong answer


def graded_originals(workdir: str) -> list[dict]:
    """Twelve submissions graded for real: each one's lesson, submitted file, graded text and total."""
    course = make_course(workdir, KINDS_PER_LESSON * len(assignments(ROOT)))
    subprocess.run([os.path.join(BIN, "autograd-course"), "--root", course, "grade"], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    totals = scores(Course(course).db_url)
    originals = []
    for student in sorted(os.listdir(os.path.join(course, "submitted"))):
        (lesson,) = os.listdir(os.path.join(course, "submitted", student))
        name = f"{lesson}.ipynb"
        with open(os.path.join(course, "submitted", student, lesson, name), "rb") as handle:
            submitted = handle.read()
        with open(os.path.join(course, "autograded", student, lesson, name), encoding="utf-8") as handle:
            graded = handle.read()
        originals.append({"lesson": lesson, "submitted": submitted, "graded": graded,
                          "results": cell_results(nbformat.v4.reads(graded)),  # read in the worker
                          "total": totals[(student, lesson)]})
    return originals


def released_course(workdir: str, db_url: str | None) -> str:
    course = os.path.join(workdir, "course")
    os.makedirs(course)
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), course)
    if db_url:
        with open(os.path.join(course, "nbgrader_config.py"), "a") as config:
            config.write(f'\nc.CourseDirectory.db_url = "{db_url}"\n')
    for lesson in assignments(ROOT):
        shutil.copytree(os.path.join(ROOT, "source", lesson), os.path.join(course, "source", lesson))
    generate_release(course, assignments(ROOT))
    return course


def submit(course: str, originals: list[dict], size: int, prefix: str) -> list[Executed]:
    """``size`` submissions in ``submitted/`` (untimed), and what the workers would have returned."""
    batch = []
    for i in range(size):
        original = originals[i % len(originals)]
        student, lesson = f"{prefix}{i:05d}", original["lesson"]
        folder = os.path.join(course, "submitted", student, lesson)
        os.makedirs(folder)
        with open(os.path.join(folder, f"{lesson}.ipynb"), "wb") as handle:
            handle.write(original["submitted"])
        batch.append(Executed(lesson, student, {lesson: original["graded"]},
                              {lesson: hashlib.sha256(original["submitted"]).hexdigest()},
                              {lesson: original["results"]}))
    return batch


def record(course: str, batch: list[Executed]) -> tuple[float, float, int]:
    """Seconds and CPU seconds to record ``batch`` as the fan-out does; how many were refused."""
    started, cpu = time.monotonic(), time.process_time()
    course_dir = Course(course)
    size = GradingBatch(config=course_dir.config).recording_batch
    recorder = Recorder(course_dir)
    refused = 0
    for first in range(0, len(batch), size):
        refused += sum(why is not None for why in recorder.record_batch(batch[first:first + size]).values())
    recorder.close()
    return time.monotonic() - started, time.process_time() - cpu, refused


def scores(db_url: str) -> dict:
    """Each submission's total, in one query (nbgrader's API takes a few queries per submission)."""
    import sqlalchemy
    engine = sqlalchemy.create_engine(db_url)
    with engine.connect() as connection:
        rows = connection.execute(sqlalchemy.text(
            "SELECT sa.student_id, a.name, SUM(COALESCE(g.manual_score, g.auto_score, 0)) FROM grade g "
            "JOIN submitted_notebook sn ON g.notebook_id = sn.id JOIN submitted_assignment sa ON sn.assignment_id = sa.id "
            "JOIN assignment a ON sa.assignment_id = a.id GROUP BY sa.student_id, a.name")).all()
    engine.dispose()
    return {(student, lesson): float(total) for student, lesson, total in rows}


def scores_agree(course: str, originals: list[dict], batch: list[Executed]) -> bool:
    totals = scores(Course(course).db_url)
    return all(totals.get((e.student, e.lesson)) == originals[i % len(originals)]["total"]
               for i, e in enumerate(batch))


def run(name: str, course: str, originals: list[dict], sizes: list[int]) -> None:
    for size in sizes:
        batch = submit(course, originals, size, f"n{size}_")
        seconds, cpu, refused = record(course, batch)
        same = "agree" if not refused and scores_agree(course, originals, batch) else f"DIFFER ({refused} refused)"
        print(f"{size:>6} {name:>11} {seconds:>9.1f} {size / seconds:>14.0f} {1000 * cpu / size:>20.1f} {same}",
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 1000, 5000])
    args = parser.parse_args()
    os.environ.setdefault("MPLBACKEND", "Agg")
    with tempfile.TemporaryDirectory(prefix="recording-bench-") as workdir:
        originals = graded_originals(os.path.join(workdir, "originals"))
        print(f"recording N already-executed submissions of all four lessons ({len(originals)} graded originals, "
              f"in turn); batches of {GradingBatch().recording_batch} per transaction")
        print(f"{'N':>6} {'database':>11} {'seconds':>9} {'submissions/s':>14} {'command CPU ms/sub':>20} scores")
        run("SQLite", released_course(os.path.join(workdir, "sqlite"), None), originals, args.sizes)
        why = missing()
        if why:
            print(f"PostgreSQL skipped: {why}")
            return
        with postgres_server(durable=True) as server:
            run("PostgreSQL", released_course(os.path.join(workdir, "postgresql"), server.url), originals, args.sizes)


if __name__ == "__main__":
    main()
