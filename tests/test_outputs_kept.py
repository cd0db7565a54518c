"""A graded notebook keeps, cell by cell, the kinds of output plain nbgrader's run keeps.

Each lesson's solution is graded three ways in copies of one scratch course: by plain
`nbgrader autograde` (nbgrader's own Execute, a fresh kernel per notebook), and by
`autograd-course grade` with warm kernels (forked from the zygote) and with cold ones. Every cell
must show the same kinds of output (figures as images, widgets as their views, text as text) in all
three: the feedback a student reads back is their notebook. A second student hands in lesson 2 with
two wrong answers whose checks warn (issue 25): the warning plain nbgrader's run shows before the
check's error is in the graded cell too, word for word. The Dask path forks its kernels from
the same zygote code; tests/test_parallel_grading.py checks its notebooks against those graded in-process.
The grader's kernels draw each figure with fewer pixels than plain nbgrader's (course/visuals/drawing.py).
"""
import base64
import io
import os
import shutil
import subprocess
import sys

import nbformat
import pytest
from PIL import Image

from autograder import gradebook_scores

from autograder.authoring.release import generate_release
from autograder.authoring.output_parity import count, differences
from autograder.authoring.wrong_answers import build_submission, load_corpus, solution_cells, write_submission
from autograder.cli import main
from autograder.course_dir import assignments
from conftest import ROOT
from course.visuals.drawing import GRADING_DPI

LESSONS = assignments(ROOT)
PLAIN_EXECUTE = ('\nc.Autograde.autograde_preprocessors = ["nbgrader.preprocessors.Execute"]'
                 ' + c.Autograde.autograde_preprocessors[1:]\n')
COLD = "\nc.GradingKernels.warm_kernels = False\n"
WARNED_LESSON = "02_backward"
WARNED = ("hvp_first_derivative_times_v", "no_retain_grad")  # wrong answers whose checks warn (corpus files)


def _course(workdir: str) -> str:
    """A scratch course with every lesson released and its solution submitted by ``solution``."""
    course = os.path.join(workdir, "base")
    os.makedirs(course)
    shutil.copy(os.path.join(ROOT, "nbgrader_config.py"), course)
    with open(os.path.join(course, "nbgrader_config.py"), "a") as config:
        config.write("\nc.Execute.timeout = 60\n")
    for lesson in LESSONS:
        shutil.copytree(os.path.join(ROOT, "source", lesson), os.path.join(course, "source", lesson))
    generate_release(course, LESSONS)
    for lesson in LESSONS:
        name = f"{lesson}.ipynb"
        release = nbformat.read(os.path.join(course, "release", lesson, name), as_version=4)
        solutions = solution_cells(nbformat.read(os.path.join(course, "source", lesson, name), as_version=4))
        write_submission(course, "solution", lesson, name, build_submission(release, solutions))
        if lesson == WARNED_LESSON:
            corpus = {a.name: a for a in load_corpus(os.path.join(ROOT, "tests", "wrong_submissions"))}
            wrong = {corpus[n].replaces: corpus[n].code for n in WARNED}
            write_submission(course, "warned", lesson, name, build_submission(release, {**solutions, **wrong}))
    return course


def _copy(base: str, name: str, config: str = "") -> str:
    copy = shutil.copytree(base, os.path.join(os.path.dirname(base), name))
    with open(os.path.join(copy, "nbgrader_config.py"), "a") as handle:
        handle.write(config)
    return copy


def graded(root: str, lesson: str, student: str = "solution"):
    return nbformat.read(os.path.join(root, "autograded", student, lesson, f"{lesson}.ipynb"), as_version=4)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = _course(str(tmp_path_factory.mktemp("outputs")))
    plain, warm, cold = _copy(base, "plain", PLAIN_EXECUTE), _copy(base, "warm"), _copy(base, "cold", COLD)
    nbgrader = os.path.join(os.path.dirname(sys.executable), "nbgrader")
    # as from an instructor's shell: the tests' Agg backend would leave plain nbgrader's kernels no figures
    shell = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    for lesson in LESSONS:
        subprocess.run([nbgrader, "autograde", lesson, "--create"], cwd=plain, check=True,
                       capture_output=True, timeout=600, env=shell)
    for root in (warm, cold):
        assert main(["--root", root, "grade", "--workers", "2"]) == 0
    return {"plain": plain, "warm": warm, "cold": cold}


@pytest.mark.parametrize("kernels", ["warm", "cold"])
def test_each_cell_keeps_plain_nbgraders_kinds_of_output(runs, kernels):
    for lesson in LESSONS:
        plain, ours = graded(runs["plain"], lesson), graded(runs[kernels], lesson)
        assert differences(plain, ours) == [], f"{lesson}, {kernels} kernels"
        assert count(ours, "image") == count(plain, "image") > 0  # lesson 1's figures were the ones lost
    assert count(graded(runs["plain"], "01_graph"), "widget") > 0


@pytest.mark.parametrize("kernels", ["warm", "cold"])
def test_a_wrong_answers_warnings_show_before_its_error_as_plain_nbgrader_shows_them(runs, kernels):
    """PyTorch's warning (a non-leaf's .grad read; backward with create_graph=True) is text on stderr
    before the verdict's error, the same words as plain nbgrader's run shows, each once."""
    plain, ours = graded(runs["plain"], WARNED_LESSON, "warned"), graded(runs[kernels], WARNED_LESSON, "warned")
    assert differences(plain, ours) == []
    for test in ("test_hvp", "test_grads_with_intermediate"):
        want, got = (next(c.outputs for c in notebook.cells if c.id == test) for notebook in (plain, ours))
        assert [(o.output_type, o.get("name")) for o in got] == [("stream", "stderr"), ("error", None)], test
        assert got[0].text == want[0].text and got[0].text.startswith("UserWarning: "), test
        assert got[0].text.count("UserWarning: ") == 1, test


def dpis(notebook) -> list[int]:
    """The pixels per inch of every PNG the notebook holds, as matplotlib recorded them."""
    return [round(Image.open(io.BytesIO(base64.b64decode(o["data"]["image/png"]))).info["dpi"][0])
            for cell in notebook.cells for o in cell.get("outputs", []) if "image/png" in o.get("data", {})]


@pytest.mark.parametrize("kernels", ["warm", "cold"])
def test_the_graders_kernels_draw_every_figure_with_fewer_pixels(runs, kernels):
    """Every figure is in the feedback, drawn at the grading dpi (course/visuals/drawing.py); plain
    nbgrader's kernels, which the grader did not start, draw them at the lesson's own."""
    for lesson in LESSONS:
        plain, ours = dpis(graded(runs["plain"], lesson)), dpis(graded(runs[kernels], lesson))
        assert len(ours) == len(plain) > 0, lesson
        assert set(ours) == {GRADING_DPI} and min(plain) > GRADING_DPI, lesson


def test_the_scores_agree_too(runs):
    totals = {root: {(r["assignment"], r["student"]): r["code_score"] for r in gradebook_scores.scores(runs[root])}
              for root in runs}
    assert totals["warm"] == totals["cold"] == totals["plain"]
    assert all(score > 0 for score in totals["plain"].values())


def _notebook(*outputs_per_cell):
    notebook = nbformat.v4.new_notebook()
    for k, outputs in enumerate(outputs_per_cell):
        cell = nbformat.v4.new_code_cell(id=f"c{k}")
        cell.outputs = [nbformat.from_dict(o) for o in outputs]
        notebook.cells.append(cell)
    return notebook


FIGURE = {"output_type": "display_data", "metadata": {}, "data": {"image/png": "iVBOR", "text/plain": "<Figure>"}}
FIGURE_AS_TEXT = {"output_type": "execute_result", "metadata": {}, "execution_count": 1,
                  "data": {"text/plain": "<Figure size 700x550 with 2 Axes>"}}
VIEW = {"output_type": "display_data", "metadata": {},
        "data": {"application/vnd.jupyter.widget-view+json": {"model_id": "m"}, "text/plain": "VBox()"}}
STREAM = {"output_type": "stream", "name": "stdout", "text": "x\n"}


def test_a_figure_left_as_its_text_is_a_difference():
    plain = _notebook([STREAM, FIGURE], [VIEW])
    assert differences(plain, _notebook([STREAM, FIGURE], [VIEW])) == []
    assert differences(plain, _notebook([STREAM, FIGURE_AS_TEXT], [VIEW])) == \
        ["cell c0: text image expected, text kept"]
    assert differences(plain, _notebook([STREAM, FIGURE], [])) == ["cell c1: widget expected, nothing kept"]


def test_a_stream_split_in_two_is_the_same_kind():
    assert differences(_notebook([STREAM]), _notebook([STREAM, STREAM])) == []
    assert count(_notebook([STREAM, FIGURE], [FIGURE]), "image") == 2
