"""How collect's time grows with the number of files in a download: linear, seconds for 20,000.

    .venv/bin/python benchmarks/collect_entries.py [--sizes 5000 10000 20000] [--scratch DIR]

For each size N, two downloads of 02_backward are collected into a fresh scratch course (four lesson
folders, no gradebook), each once, timed around `collect()` alone:

- "one zip": a Canvas download of 20 honest students and one student's zip holding N tiny files beside
  the notebook, every one kept aside in that student's uploads/ (the limits per student raised to let
  it through: with the default c.Collect.max_upload_entries of 1,000 it is refused at once);
- "a class": a Moodle download of N files, a folder per student of ten files each (the notebook and
  nine others kept aside), N/10 students.

The table gives seconds (on the clock, and of the process's CPU) and microseconds of each per file;
linear time shows as flat per-file columns. Most of it is the file system's: every file is created once in the course (staged, then renamed into place),
so the figures follow how fast the disk under ``--scratch`` (default: the system's temporary folder)
creates files. The scratch courses are removed.
"""
import argparse
import io
import os
import shutil
import sys
import tempfile
import time
import zipfile

import nbformat

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from autograder.workflow.collect.download import collect  # noqa: E402

LESSONS = ["01_graph", "02_backward", "03_no_grad", "04_zero_grad"]


def _notebook(text: str) -> bytes:
    return nbformat.writes(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(text)])).encode()


def _zip(entries) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_STORED) as archive:
        for name, data in entries:
            archive.writestr(zipfile.ZipInfo(name, (2026, 3, 3, 9, 0, 0)), data)
    return buffer.getvalue()


def _course(folder: str, entries: int) -> str:
    root = os.path.join(folder, "course")
    for lesson in LESSONS:
        os.makedirs(os.path.join(root, "source", lesson))
        with open(os.path.join(root, "source", lesson, f"{lesson}.ipynb"), "wb") as handle:
            handle.write(_notebook("pass"))
    with open(os.path.join(root, "nbgrader_config.py"), "w") as handle:
        handle.write(f"c = get_config()\nc.Collect.max_upload_entries = {entries + 10}\n"
                     f"c.Collect.max_upload_bytes = {64 * 1024**2}\n")
    return root


def one_zip(size: int) -> list[tuple[str, bytes]]:
    inner = _zip([("work/02_backward.ipynb", _notebook("mine"))]
                 + [(f"work/data/file{i:05d}.txt", b"%d\n" % i) for i in range(size - 1)])
    honest = [(f"student{i:02d}_{48000 + i}_{7000 + i}_02_backward.ipynb", _notebook(f"s{i}")) for i in range(20)]
    return honest + [("doejane_5120_9000_work.zip", inner)]


def a_class(size: int) -> list[tuple[str, bytes]]:
    entries = []
    for student in range(size // 10):
        folder = f"Student {student}_{2000 + student}_assignsubmission_file/"
        entries.append((folder + "02_backward.ipynb", _notebook(f"s{student}")))
        entries += [(folder + f"notes{i}.txt", b"%d\n" % i) for i in range(9)]
    return entries


def measure(kind, size: int, scratch: str | None = None) -> tuple[float, float]:
    with tempfile.TemporaryDirectory(prefix="collect-bench-", dir=scratch) as folder:
        root = _course(folder, size)
        source = os.path.join(folder, "download.zip")
        with open(source, "wb") as handle:
            handle.write(_zip(kind(size)))
        started, cpu = time.perf_counter(), time.process_time()
        report = collect(source, root)
        seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
        kept = sum(len(files) for _, _, files in os.walk(os.path.join(root, "ungraded")))
        assert report.placed and kept >= size * 0.8, (len(report.placed), kept)
        shutil.rmtree(root)
    return seconds, cpu


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[5000, 10000, 20000])
    parser.add_argument("--scratch", help="where to make the scratch courses (default: the system's temporary folder)")
    args = parser.parse_args(argv)
    print(f"{'download':10s} {'files':>7s} {'seconds':>8s} {'us/file':>8s} {'CPU s':>7s} {'us/file':>8s}")
    for kind in (one_zip, a_class):
        for size in args.sizes:
            seconds, cpu = measure(kind, size, args.scratch)
            print(f"{kind.__name__.replace('_', ' '):10s} {size:7d} {seconds:8.2f} {seconds / size * 1e6:8.0f} "
                  f"{cpu:7.2f} {cpu / size * 1e6:8.0f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
