"""The grader draws the figures a grading kernel describes: once per identical description, within its
caps, and a description it cannot draw costs only that picture (pictures.py, course/visuals/picture.py)."""
import base64
import contextlib
import io
import json
import subprocess
import sys
import threading
import time

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402
from PIL import Image  # noqa: E402

from autograder.grading.judging import pictures  # noqa: E402
from course.visuals import drawing, picture  # noqa: E402
from course.visuals.backward_steps import backward_steps  # noqa: E402
from course.visuals.draw_graph import describe_graph  # noqa: E402
from course.visuals.grad_history_plot import plot_grad_history  # noqa: E402
from course.visuals.gradient_plot import describe_gradient, plot_gradient  # noqa: E402


@pytest.fixture(autouse=True)
def grading(monkeypatch):
    monkeypatch.setenv(drawing.KERNEL_VARIABLE, drawing.GRADING)
    monkeypatch.setattr(pictures, "DRAWN", type(pictures.DRAWN)())


def graph():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    return describe_graph((x * x).sum(), {"x": x})


def message(shown: dict) -> dict:
    """A display message as a kernel's session delivers it: strict JSON, decoded."""
    return {"msg_type": "display_data", "content": {"data": json.loads(json.dumps(shown, allow_nan=False)),
                                                    "metadata": {}}}


def shown(description) -> dict:
    return message({picture.PICTURE_MIME: description, "text/plain": picture.PLACEHOLDER})


def show(notebook: pictures.Pictures, msg: dict, kept: bool = True) -> None:
    """As grading does: the message received while its cell runs, the picture drawn once the cell has run."""
    notebook.receive(msg, kept)
    notebook.draw([{"outputs": [msg["content"]]}])


def test_a_described_figure_becomes_its_png_and_matplotlibs_text(monkeypatch):
    msg = message(plot_gradient(torch.sin, -1, 1)._repr_mimebundle_()[0])
    show(pictures.Pictures(64, 30, 10**8), msg)
    data = msg["content"]["data"]
    assert set(data) == {"image/png", "text/plain"} and data["text/plain"].startswith("<Figure size 504x396")
    image = Image.open(io.BytesIO(base64.b64decode(data["image/png"])))
    assert image.info["dpi"][0] == pytest.approx(drawing.GRADING_DPI, abs=0.1) and image.size[0] == 504


def test_an_identical_description_is_drawn_once_per_process(monkeypatch):
    drawn = []
    real = pictures.grading_png
    monkeypatch.setattr(pictures, "grading_png", lambda d: drawn.append(d) or real(d))
    first, second, other = shown(graph()), shown(graph()), shown(describe_gradient(torch.sin, -1, 1))
    for msg in (first, second, other):
        show(pictures.Pictures(64, 30, 10**8), msg)  # a notebook each
    assert len(drawn) == 2 and first["content"]["data"] == second["content"]["data"]


def test_a_widgets_picture_is_drawn_and_its_own_text_kept():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    msg = message(backward_steps((x * x).sum(), {"x": x})._repr_mimebundle_()[0])
    show(pictures.Pictures(64, 30, 10**8), msg)
    data = msg["content"]["data"]
    assert "image/png" in data and picture.PICTURE_MIME not in data and data["text/plain"].startswith("Before backward()")


def test_pictures_sent_while_an_exercise_is_tried_are_not_drawn(monkeypatch):
    monkeypatch.setattr(pictures, "grading_png", lambda d: pytest.fail("drew a picture no one keeps"))
    msg = shown(graph())
    show(pictures.Pictures(64, 30, 10**8), msg, kept=False)
    assert msg["content"]["data"] == {}


def test_past_its_caps_a_notebooks_pictures_say_so():
    notebook = pictures.Pictures(2, 30, 10**8)
    msgs = [shown(plot_grad_history([("backward()", float(i))])._repr_mimebundle_()[0][picture.PICTURE_MIME])
            for i in range(3)]
    for msg in msgs:
        show(notebook, msg)
    assert ["image/png" in m["content"]["data"] for m in msgs] == [True, True, False]
    assert msgs[2]["content"]["data"]["text/plain"] == "(picture not drawn: this notebook showed more than 2 pictures)"
    for limits, why in (((64, 0, 10**8), "took more than 0 s"), ((64, 30, 0), "more than 0 bytes")):
        msg = shown(graph())
        show(pictures.Pictures(*limits), msg)
        assert why in msg["content"]["data"]["text/plain"] and "image/png" not in msg["content"]["data"]


def forged():
    good = graph()
    cycle = {**good, "edges": good["edges"] + [[len(good["nodes"]) - 1, 0]]}
    stray = {**good, "nodes": good["nodes"] + [{"kind": "leaf", "label": "z", "lines": ["z"]}]}
    return {
        "not a mapping": ["kind", "graph"],
        "no kind of picture": {"kind": "os.system"},
        "without a cycle": cycle,
        "one walk from node 0": stray,
        "pair of node numbers": {**good, "edges": [[0, 99]]},
        "characters of text": {**good, "title": "x" * 1999, "nodes": [{**n, "lines": ["y" * 1999] * 12}
                                                                       for n in good["nodes"]] * 3},
        "at most 2000 characters": {**good, "title": "x" * 2001},
        "not base64": {**describe_gradient(torch.sin, -1, 1), "xs": "%%%%"},
        "packed floats": {**describe_gradient(torch.sin, -1, 1), "xs": picture.pack([0.0] * 6000)},
        "as many values": {**describe_gradient(torch.sin, -1, 1), "y": picture.pack([0.0])},
        "kind among": {**good, "nodes": [{"kind": "exec", "label": "x", "lines": ["x"]}], "edges": []},
        "whole number": {**good, "max_nodes": "all"},
        "on a side": {**good, "nodes": [{"kind": "output", "label": "y", "lines": ["y", "W" * 2000]}], "edges": []},
    }


@pytest.mark.parametrize("why", list(forged()))
def test_a_description_that_cannot_be_drawn_costs_only_that_picture_and_says_why(why):
    msg = shown(forged()[why])
    show(pictures.Pictures(64, 30, 10**8), msg)
    data = msg["content"]["data"]
    assert set(data) == {"text/plain"} and data["text/plain"].startswith("(picture not drawn: ")
    assert why in data["text/plain"]


def test_the_memo_forgets_the_oldest_past_its_bytes(monkeypatch):
    monkeypatch.setattr(pictures, "MEMO_BYTES", 1)
    for description in (graph(), describe_gradient(torch.sin, -1, 1)):
        show(pictures.Pictures(64, 30, 10**8), shown(description))
    assert len(pictures.DRAWN) == 0


def test_a_grading_kernels_figure_is_drawn_as_a_students_kernel_draws_it(monkeypatch):
    described = plot_gradient(torch.sin, -1, 1).description
    monkeypatch.delenv(drawing.KERNEL_VARIABLE)
    fig = plot_gradient(torch.sin, -1, 1)
    assert picture.draw(described).get_size_inches().tolist() == fig.get_size_inches().tolist()
    assert [t.get_text() for t in picture.draw(described).axes[0].get_legend().get_texts()] == \
        [t.get_text() for t in fig.axes[0].get_legend().get_texts()]


def test_a_picture_one_worker_drew_is_read_by_another_sharing_its_folder(monkeypatch, tmp_path):
    monkeypatch.setattr(pictures, "_shared", dict(pictures._shared))
    pictures.share(str(tmp_path))
    first = shown(graph())
    show(pictures.Pictures(64, 30, 10**8), first)  # drawn, and left in the folder
    assert sorted(p.suffix for p in tmp_path.iterdir()) == [".json", ".lock"]  # the drawing, its lock
    monkeypatch.setattr(pictures, "DRAWN", type(pictures.DRAWN)())  # another worker: its own memo empty
    monkeypatch.setattr(pictures, "grading_png", lambda d: pytest.fail("drawn again"))
    second = shown(graph())
    show(pictures.Pictures(64, 30, 10**8), second)
    assert second["content"]["data"] == first["content"]["data"]


def test_a_worker_leaves_no_more_than_its_share_and_draws_what_it_cannot_read(monkeypatch, tmp_path):
    monkeypatch.setattr(pictures, "_shared", dict(pictures._shared))
    monkeypatch.setattr(pictures, "SHARED_BYTES", 1)
    pictures.share(str(tmp_path))
    show(pictures.Pictures(64, 30, 10**8), shown(graph()))
    assert list(tmp_path.glob("*.json")) == []  # over its share: kept in its own memo only
    key = pictures._digest(graph())
    not_png = base64.b64encode(b"<svg onload=alert(1)>").decode()
    for planted in ('["not base64", "text"]', json.dumps([not_png, "<Figure>"]), '{"png": 1}'):
        (tmp_path / f"{key}.json").write_text(planted)  # not a drawing: drawn anew
        monkeypatch.setattr(pictures, "DRAWN", type(pictures.DRAWN)())
        msg = shown(graph())
        show(pictures.Pictures(64, 30, 10**8), msg)
        assert Image.open(io.BytesIO(base64.b64decode(msg["content"]["data"]["image/png"]))).format == "PNG"


def slow_drawings(monkeypatch, seconds: float) -> tuple[list, threading.Event]:
    """Every drawing recorded and made ``seconds`` slower; the event is set when the first begins."""
    drawn, begun, real = [], threading.Event(), pictures.grading_png

    def slow(description):
        drawn.append(description)
        begun.set()
        time.sleep(seconds)
        return real(description)
    monkeypatch.setattr(pictures, "grading_png", slow)
    return drawn, begun


def test_a_notebooks_drawing_time_is_this_processs_cpu_time_not_the_clock(monkeypatch):
    """A busy machine stretches the clock, not the CPU time a drawing takes: the same pictures are drawn."""
    drawn, _ = slow_drawings(monkeypatch, 0.3)  # waiting, as a drawing does while other processes run
    notebook = pictures.Pictures(64, 0.2, 10**8)
    msgs = [shown(graph()), shown(describe_gradient(torch.sin, -1, 1))]
    for msg in msgs:
        show(notebook, msg)
    assert len(drawn) == 2 and all("image/png" in m["content"]["data"] for m in msgs)

    def working(description):  # 0.25 s of this thread's CPU
        began = time.thread_time()
        while time.thread_time() - began < 0.25:
            pass
        return b"\x89PNG\r\n\x1a\n", "<Figure>"
    monkeypatch.setattr(pictures, "grading_png", working)
    monkeypatch.setattr(pictures, "DRAWN", type(pictures.DRAWN)())
    busy, msgs = pictures.Pictures(64, 0.2, 10**8), [shown(graph()), shown(describe_gradient(torch.sin, -1, 1))]
    for msg in msgs:
        show(busy, msg)
    assert "image/png" in msgs[0]["content"]["data"]
    assert "took more than 0.2 s" in msgs[1]["content"]["data"]["text/plain"]


def test_a_picture_is_drawn_once_its_cell_has_run_not_when_its_message_comes(monkeypatch):
    monkeypatch.setattr(pictures, "grading_png", lambda d: pytest.fail("drew while the kernel's reply was awaited"))
    notebook, msg = pictures.Pictures(64, 30, 10**8), shown(graph())
    notebook.receive(msg)
    assert picture.PICTURE_MIME in msg["content"]["data"]  # kept in the output, to be drawn after the cell


def test_a_worker_waits_for_the_one_drawing_the_same_picture_and_reads_it(monkeypatch, tmp_path):
    monkeypatch.setattr(pictures, "_shared", dict(pictures._shared))
    pictures.share(str(tmp_path))
    drawn, begun = slow_drawings(monkeypatch, 0.5)
    first, second = shown(graph()), shown(graph())
    drawing = threading.Thread(target=show, args=(pictures.Pictures(64, 30, 10**8), first))
    drawing.start()
    assert begun.wait(30)
    monkeypatch.setattr(pictures, "DRAWN", type(pictures.DRAWN)())  # another worker: its own memo, its own lock
    show(pictures.Pictures(64, 30, 10**8), second)  # while the first is still drawing
    drawing.join(30)
    assert len(drawn) == 1 and second["content"]["data"] == first["content"]["data"]


@contextlib.contextmanager
def lock_held_by_another_process(folder, key):
    holder = subprocess.Popen([sys.executable, "-c", "import fcntl, os, sys, time\n"
                               "fcntl.flock(os.open(sys.argv[1], os.O_CREAT | os.O_RDWR), fcntl.LOCK_EX)\n"
                               "print('held', flush=True)\ntime.sleep(600)", str(folder / f"{key}.lock")],
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "held\n"
        yield holder
    finally:
        holder.kill()
        holder.wait()


def test_a_worker_that_died_holding_a_drawings_lock_keeps_no_one_waiting(monkeypatch, tmp_path):
    monkeypatch.setattr(pictures, "_shared", dict(pictures._shared))
    pictures.share(str(tmp_path))
    drawn, _ = slow_drawings(monkeypatch, 0)
    msg = shown(graph())
    waiting = threading.Thread(target=show, args=(pictures.Pictures(64, 600, 10**8), msg))
    with lock_held_by_another_process(tmp_path, pictures._digest(graph())):
        waiting.start()
        waiting.join(0.5)
        assert waiting.is_alive() and drawn == []  # waits for the one drawing it
    waiting.join(60)  # killed: the system let go of its lock
    assert not waiting.is_alive() and len(drawn) == 1 and "image/png" in msg["content"]["data"]


def test_a_worker_waits_for_anothers_drawing_no_longer_than_its_notebooks_drawing_time(monkeypatch, tmp_path):
    monkeypatch.setattr(pictures, "_shared", dict(pictures._shared))
    pictures.share(str(tmp_path))
    drawn, _ = slow_drawings(monkeypatch, 0)
    msg, notebook = shown(graph()), pictures.Pictures(64, 0.5, 10**8)
    with lock_held_by_another_process(tmp_path, pictures._digest(graph())):
        started = time.monotonic()
        show(notebook, msg)  # the holder never lets go: drawn here once its patience is spent
    assert len(drawn) == 1 and "image/png" in msg["content"]["data"] and time.monotonic() - started >= 0.5
