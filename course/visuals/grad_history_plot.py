"""What `.grad` holds after each call: a bar per step, so accumulation and resets are seen, not told.

The lesson records the steps itself (a label and the value of one `.grad` entry, or None), so the
picture shows exactly what the code above it did.
"""
import matplotlib.pyplot as plt
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from course.visuals.picture import MAX_TEXT, PictureError, floats, items, pack, show, text

MAX_STEPS = 40  # bars one history may have

# Okabe-Ito colours; a reset is a square marker, not a bar, so the kinds stay apart in greyscale
# (and a reset to zero, a bar of height 0, stays visible).
BACKWARD = dict(color="#0072B2", edgecolor="#0072B2")
RESET_MARK = dict(marker="s", color="#E69F00", markeredgecolor="#8a5f00", markersize=11, linestyle="none")
NONE_MARK = dict(marker="x", color="#D55E00", markersize=10, markeredgewidth=2.5, linestyle="none")


def _is_reset(label: str) -> bool:
    return "backward" not in label


def plot_grad_history(steps: list[tuple[str, float | None]], one_call: float | None = None,
                      title: str = "What .grad holds after each call"):
    """One bar per (label, value) step; value None is drawn as a cross: there is no tensor at all.

    `one_call`, if given, draws the gradient of a single backward() as a dashed line to compare with.
    """
    if not steps:
        raise ValueError("steps is empty: record at least one (label, value) pair")
    values = [float("nan") if value is None else float(value) for _, value in steps]
    return show({"kind": "grad_history", "labels": [str(label) for label, _ in steps], "values": pack(values),
                 "missing": [value is None for _, value in steps], "title": str(title),
                 "one_call": pack([] if one_call is None else [float(one_call)])})  # packed: NaN is no JSON


def _read(description: dict):
    """The description's title, steps as (label, value or None), and one call's gradient, checked."""
    labels, missing = items(description, "labels", MAX_STEPS), items(description, "missing", MAX_STEPS)
    values, one_call = floats(description, "values", MAX_STEPS), floats(description, "one_call", 1)
    title = text(description, "title")
    if not labels or not len(labels) == len(missing) == len(values):
        raise PictureError("labels, values and missing must hold as many entries each, at least one")
    if not all(isinstance(label, str) and len(label) <= MAX_TEXT for label in labels) \
            or not all(isinstance(flag, bool) for flag in missing):
        raise PictureError("labels must be texts and missing true or false")
    steps = [(label, None if flag else float(value)) for label, flag, value in zip(labels, missing, values)]
    one_call = float(one_call[0]) if len(one_call) else None
    return title, steps, one_call


def text_alternative(description: dict) -> str:
    """What ``draw_picture`` draws, in words: each call and what ``.grad`` held after it."""
    title, steps, one_call = _read(description)
    said = []
    for i, (label, value) in enumerate(steps, 1):
        what = "None, no tensor at all" if value is None else f"{value:.4g}"
        said.append(f"{i}. {label}: {what}" + ("" if value is None or _is_reset(label) else " (backward adds)"))
    line = f" A dashed line marks one backward()'s gradient, {one_call:.4g}." if one_call is not None else ""
    return f"{title}. A chart, one mark per call, of the value .grad holds after it: " + "; ".join(said) + "." + line


def draw_picture(description: dict, dpi: float | None) -> Figure:
    """The figure of ``plot_grad_history``'s steps."""
    title, steps, one_call = _read(description)
    labels = [label for label, _ in steps]
    fig, ax = plt.subplots(figsize=(max(5.0, 1.0 + 0.95 * len(steps)), 3.8), dpi=dpi)
    for i, (label, value) in enumerate(steps):
        if value is None:
            ax.plot([i], [0], **NONE_MARK)
            ax.annotate("None", (i, 0), textcoords="offset points", xytext=(0, 9), ha="center", fontsize=9)
            continue
        if _is_reset(label):
            ax.plot([i], [value], **RESET_MARK)
        else:
            ax.bar(i, value, width=0.6, linewidth=1.2, **BACKWARD)
        ax.annotate(f"{value:.4g}", (i, value), textcoords="offset points",
                    xytext=(0, 7 if value >= 0 else -14), ha="center", fontsize=9)
    if one_call is not None:
        ax.axhline(one_call, color="#000000", linestyle="--", linewidth=1.2)
    ax.axhline(0, color="#999999", linewidth=0.8)
    ax.set_xticks(range(len(steps)), [f"{i + 1}. {label}" for i, label in enumerate(labels)],
                  rotation=20, ha="right", fontsize=9)
    ax.set_ylabel(".grad value")
    ax.set_title(title, fontsize=11)
    ax.use_sticky_edges = False  # room below 0, so markers on the axis are not cut in half
    ax.margins(y=0.12)
    handles = [Patch(facecolor=BACKWARD["color"], label="after backward(): adds"),
               plt.Line2D([], [], label="after a reset", **RESET_MARK),
               plt.Line2D([], [], label=".grad is None", **NONE_MARK)]
    if one_call is not None:
        handles.append(plt.Line2D([], [], color="#000000", linestyle="--", label="one backward()'s gradient"))
    ax.legend(handles=handles, loc="best", fontsize=8, frameon=False)
    ax.grid(True, axis="y", alpha=0.3)
    fig.tight_layout()
    return fig
