"""Building a lesson gives the same files every time, and a change to a few cells changes about those
cells: widget models named after their cells, plain cells' ids made from their text, no execution
counts, streams joined, and outputs that differ only by where objects lived kept as stored."""
import copy
import os
import uuid

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_notebook, new_output

from autograder.authoring import build_source, lesson_outline
from autograder.authoring.lesson_script import parse, read
from autograder.authoring.stable_outputs import settled
from autograder.authoring.widget_ids import STATE, VIEW, stable_widget_ids
from autograder.course_dir import assignments
from conftest import ROOT


def _widget_notebook(a: str, layout: str, b: str, orphan: str):
    """Two cells showing a widget each (the first refers to a layout model), and a model nothing shows."""
    def view(model):
        return new_output("display_data", data={VIEW: {"model_id": model, "version_major": 2, "version_minor": 0},
                                                "text/plain": "IntSlider(value=0)"})
    state = {a: {"model_name": "IntSliderModel", "state": {"layout": f"IPY_MODEL_{layout}", "value": 0}},
             layout: {"model_name": "LayoutModel", "state": {}},
             b: {"model_name": "ButtonModel", "state": {"description": "go"}},
             orphan: {"model_name": "LayoutModel", "state": {"width": "1px"}}}
    notebook = new_notebook(cells=[new_code_cell("slider", id="first", outputs=[view(a)]),
                                   new_code_cell("button", id="second", outputs=[view(b)])])
    notebook.metadata["widgets"] = {STATE: {"state": state, "version_major": 2, "version_minor": 0}}
    return notebook


def _random_ids() -> list[str]:
    return [uuid.uuid4().hex for _ in range(4)]


def test_widget_models_get_the_same_names_whatever_the_kernel_called_them():
    one, two = (stable_widget_ids(_widget_notebook(*_random_ids())) for _ in range(2))
    assert nbformat.writes(one) == nbformat.writes(two)
    state = one.metadata["widgets"][STATE]["state"]
    slider = one.cells[0].outputs[0]["data"][VIEW]["model_id"]
    assert state[slider]["state"]["layout"][len("IPY_MODEL_"):] in state  # references follow the renaming
    assert len(state) == 4 and len(slider) == 32


def test_a_changed_cell_renames_only_its_own_models():
    ids = _random_ids()
    before = stable_widget_ids(_widget_notebook(*ids))
    changed = _widget_notebook(*ids)
    changed.cells[1].id = "second-changed"
    after = stable_widget_ids(changed)
    names = [set(n.metadata["widgets"][STATE]["state"]) for n in (before, after)]
    assert len(names[0] & names[1]) == 3  # the slider, its layout and the model nothing shows keep theirs
    assert before.cells[0].outputs == after.cells[0].outputs and before.cells[1].outputs != after.cells[1].outputs


def _run(*outputs, count=7):
    return new_notebook(cells=[new_code_cell("print(node)", id="c", execution_count=count, outputs=list(outputs))])


def test_a_run_is_stored_with_its_streams_joined():
    fresh = _run(new_output("stream", name="stdout", text="arriving at x:"),
                 new_output("stream", name="stdout", text=" tensor(6.)\n"),
                 new_output("execute_result", data={"text/plain": "3"}, execution_count=7))
    stored = settled(fresh)
    assert [o.get("text") for o in stored.cells[0].outputs] == ["arriving at x: tensor(6.)\n", None]


def test_outputs_that_differ_only_by_object_addresses_keep_the_stored_ones():
    stored = settled(_run(new_output("stream", name="stdout", text="<MulBackward0 object at 0x7f46a1>\n")))
    again = settled(_run(new_output("stream", name="stdout", text="<MulBackward0 object at 0x7f3d0e>\n")), stored)
    assert again.cells[0].outputs[0].text == "<MulBackward0 object at 0x7f46a1>\n"
    changed = settled(_run(new_output("stream", name="stdout", text="<AddBackward0 object at 0x7f3d0e>\n")), stored)
    assert changed.cells[0].outputs[0].text == "<AddBackward0 object at 0x7f3d0e>\n"


def test_kept_outputs_take_this_runs_execution_count():
    def shown(address, count):
        return _run(new_output("execute_result", data={"text/plain": f"<object at {address}>"}, execution_count=count),
                    count=count)
    again = settled(shown("0x7f3d0e", 9), settled(shown("0x7f46a1", 7)))
    assert again.cells[0].execution_count == again.cells[0].outputs[0].execution_count == 9
    assert again.cells[0].outputs[0].data["text/plain"] == "<object at 0x7f46a1>"


SCRIPT = """# %% [markdown]
# # A lesson

# %%
x = 1

# %% [markdown]
# Same words.

# %%
print(x)

# %% [markdown]
# Same words.
"""


def test_plain_cells_are_named_by_their_text_so_inserting_cells_renames_no_other():
    before = parse(SCRIPT)
    after = parse(SCRIPT.replace("# %%\nprint(x)", "# %%\ny = 2\n\n# %% [markdown]\n# New.\n\n# %%\nprint(x)"))
    assert len({c.id for c in before.cells}) == len(before.cells)  # the same text twice: two ids
    assert before.cells[2].id != before.cells[4].id and before.cells[4].id.startswith(before.cells[2].id)
    assert {c.id for c in before.cells} <= {c.id for c in after.cells}
    assert len(after.cells) == len(before.cells) + 2


LESSON = """# %% [markdown]
# # A lesson that shows a widget and an object

# %%
import ipywidgets
import sys
import time

# %%
ipywidgets.IntSlider(value=3, description="k")

# %%
print(object())
print("first part,", end="")
sys.stdout.flush()
time.sleep(0.2)
print(" second part")
"""


def test_building_a_lesson_twice_gives_the_same_file(tmp_path, monkeypatch):
    monkeypatch.setattr(lesson_outline, "outline_path", lambda lesson: str(tmp_path / "outlines" / f"{lesson}.json"))
    folder = tmp_path / "source" / "98_widgets"
    folder.mkdir(parents=True)
    (folder / "98_widgets.py").write_text(LESSON)
    target = build_source.build(str(folder / "98_widgets.py"), timeout=120)
    first = open(target).read()
    assert "IntSliderModel" in first and "object at 0x" in first and "first part, second part" in first
    build_source.build(str(folder / "98_widgets.py"), timeout=120)
    assert open(target).read() == first


@pytest.mark.parametrize("assignment", assignments(ROOT))
def test_the_committed_source_notebooks_are_as_the_build_leaves_them(assignment):
    notebook = nbformat.read(os.path.join(ROOT, "source", assignment, f"{assignment}.ipynb"), as_version=4)
    script = read(os.path.join(ROOT, "source", assignment, f"{assignment}.py"))
    assert [c.id for c in notebook.cells] == [c.id for c in script.cells]
    assert nbformat.writes(stable_widget_ids(copy.deepcopy(notebook))) == nbformat.writes(notebook)


def test_the_points_table_of_the_lessons_guide_is_made_from_the_lesson_scripts():
    from autograder.authoring import points_table
    guide = open(os.path.join(ROOT, "docs", "lessons.md"), encoding="utf-8").read()
    table = points_table.table(build_source.lesson_scripts(os.path.join(ROOT, "source")))
    assert table in guide, "run `autograd-course build` to write the points table of docs/lessons.md again"
    assert len(table.splitlines()) == 4 + len(assignments(ROOT))
