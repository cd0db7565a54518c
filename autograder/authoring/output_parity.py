"""Whether two runs of one notebook kept the same kinds of output, cell by cell.

A graded notebook is what the student reads back as feedback: it must carry what plain nbgrader's
run of the same submission carries (a figure as an image, a widget as its view, text as text), not
merely the same score. Values differ between runs (fresh seeds, timings), so only the kinds are
compared; consecutive outputs of one kind count once, as kernels may split a stream anywhere.
"""
WIDGET = "application/vnd.jupyter.widget-view+json"
IMAGES = ("image/png", "image/jpeg", "image/svg+xml")


def output_kind(output) -> str:
    """What a reader sees of one output: ``widget``, ``image``, ``html``, ``text`` or ``error``."""
    if output.get("output_type") == "error":
        return "error"
    if output.get("output_type") == "stream":
        return "text"
    data = output.get("data", {})
    if WIDGET in data:
        return "widget"
    if any(mime in data for mime in IMAGES):
        return "image"
    return "html" if "text/html" in data else "text"


def cell_kinds(notebook) -> dict[str, tuple[str, ...]]:
    """Cell id -> the kinds of its outputs in order, repeats in a row merged (code cells only)."""
    kinds = {}
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        seen = []
        for output in cell.get("outputs", []):
            kind = output_kind(output)
            if not seen or seen[-1] != kind:
                seen.append(kind)
        kinds[cell.id] = tuple(seen)
    return kinds


def differences(expected, got) -> list[str]:
    """One line per cell whose kinds of output differ, ``expected`` being plain nbgrader's run."""
    want, have = cell_kinds(expected), cell_kinds(got)
    return [f"cell {cell_id}: {' '.join(want[cell_id]) or 'nothing'} expected, "
            f"{' '.join(have.get(cell_id, ())) or 'nothing'} kept"
            for cell_id in want if want[cell_id] != have.get(cell_id, ())]


def count(notebook, kind: str) -> int:
    """How many outputs of ``kind`` the notebook holds (figures lost show here first)."""
    return sum(output_kind(o) == kind for cell in notebook.cells for o in cell.get("outputs", []))
