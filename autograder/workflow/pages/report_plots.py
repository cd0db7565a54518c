"""The class report's charts, drawn to PNG files with matplotlib.

Figures are built with ``matplotlib.figure.Figure`` (no pyplot), so drawing never opens a
window or depends on the caller's backend. Colours are the Okabe-Ito palette, which stays
distinguishable for the common forms of colour blindness.
"""
import functools
import math
import statistics
import textwrap

from matplotlib import rc_context
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, PercentFormatter

OKABE_ITO = {"orange": "#E69F00", "sky_blue": "#56B4E9", "green": "#009E73", "yellow": "#F0E442",
             "blue": "#0072B2", "vermillion": "#D55E00", "purple": "#CC79A7", "black": "#000000"}
DPI = 110
# Labels large enough to read in a browser at 100 %; no box lines that carry no data.
STYLE = {"axes.titlesize": 12, "axes.labelsize": 11, "xtick.labelsize": 10, "ytick.labelsize": 10,
         "legend.fontsize": 10, "axes.spines.top": False, "axes.spines.right": False}


def _figure(width: float, height: float) -> Figure:
    return Figure(figsize=(width, height), dpi=DPI, layout="constrained")


def _styled(draw):
    """Draw under STYLE without changing the caller's matplotlib settings."""
    @functools.wraps(draw)
    def styled(*args, **kwargs):
        with rc_context(STYLE):
            return draw(*args, **kwargs)
    return styled


@_styled
def score_histograms(scores: dict[str, list[float]], maxima: dict[str, float], path: str,
                     apart: dict[str, int] | None = None) -> str:
    """One histogram per lesson, one bar per point value: how many students scored what; ``apart``:
    how many of a lesson's submissions are shown apart (late work), said in its title so counts add up.

    Bars are a point wide, or half a point when a score has a half (a written answer's grade),
    so every score lands on its own bar. The dashed line is the mean.
    """
    lessons = list(scores)
    columns = min(len(lessons), 2)
    rows = math.ceil(len(lessons) / columns)
    figure = _figure(5.2 * columns, 3.4 * rows + 0.4)
    figure.suptitle("Score distribution per lesson (points per submission)", fontsize=13)
    grid = figure.subplots(rows, columns, squeeze=False)
    for axes, lesson in zip(grid.flat, lessons):
        top, found = maxima[lesson], scores[lesson]
        step = 1.0 if all(float(s).is_integer() for s in found) else 0.5
        edges = [i * step - step / 2 for i in range(int(math.ceil(top / step)) + 2)]
        counts, *_ = axes.hist(found, bins=edges, color=OKABE_ITO["blue"], edgecolor="white")
        if found:
            mean = statistics.fmean(found)
            axes.axvline(mean, color=OKABE_ITO["orange"], linewidth=2, linestyle="--", label=f"mean {mean:.1f}")
            axes.legend(frameon=False, loc="best")
        axes.set_ylim(0, max(counts, default=0) * 1.35 + 0.5)  # headroom for the legend above the bars
        late = (apart or {}).get(lesson, 0)
        axes.set_title(f"{lesson}: {len(found)} submissions" + (f" (+{late} late, apart)" if late else "")
                       + f", out of {top:g}")
        axes.set_xlabel("score (points)")
        axes.set_ylabel("students")
        axes.set_xlim(edges[0] - 0.1, top + step / 2 + 0.1)
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    for axes in list(grid.flat)[len(lessons):]:
        axes.set_visible(False)
    figure.savefig(path)
    return path


@_styled
def pass_rates(rows: list[tuple[str, float, int, int]], path: str) -> str:
    """rows: (label, rate 0..1, passed, submissions), top to bottom in course order."""
    figure = _figure(9.5, 0.34 * len(rows) + 1.3)
    axes = figure.subplots()
    labels = [label for label, *_ in rows]
    rates = [rate for _, rate, *_ in rows]
    colours = [OKABE_ITO["green"] if rate >= 0.5 else OKABE_ITO["vermillion"] for rate in rates]
    positions = range(len(rows))
    axes.barh(positions, rates, color=colours)
    for y, (_, rate, passed, total) in zip(positions, rows):
        axes.text(min(rate, 1.0) + 0.01, y, f"{passed}/{total}", va="center", fontsize=9)
    axes.set_yticks(list(positions), labels)
    axes.invert_yaxis()
    axes.set_xlim(0, 1.1)
    axes.xaxis.set_major_formatter(PercentFormatter(1.0))
    axes.set_xlabel("submissions with full points on the hidden test")
    axes.set_title("Pass rate per exercise (green: at least half pass; vermillion: fewer)")
    figure.savefig(path)
    return path


@_styled
def top_mistakes(rows: list[tuple[str, int]], path: str,
                 title: str = "Most frequent diagnosed mistakes (exercise: kind of mistake)") -> str:
    """rows: (label, count), most frequent first. Long labels (an idea and where it is taught) wrap."""
    labels = [textwrap.fill(label, 48) for label, _ in rows]
    lines = sum(label.count("\n") + 1 for label in labels)
    figure = _figure(9.5, 0.26 * lines + 0.1 * len(rows) + 1.3)
    axes = figure.subplots()
    positions = range(len(rows))
    axes.barh(positions, [count for _, count in rows], color=OKABE_ITO["orange"])
    axes.set_yticks(list(positions), labels)
    axes.invert_yaxis()
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("wrong answers")
    figure.suptitle(title, fontsize=STYLE["axes.titlesize"])  # over the whole figure: long labels cannot push it out
    figure.savefig(path)
    return path


@_styled
def slowest_cells(rows: list[tuple[str, float, float]], path: str) -> str:
    """rows: (label, slowest run in seconds, median run in seconds), slowest first."""
    figure = _figure(9.5, 0.34 * len(rows) + 1.5)
    axes = figure.subplots()
    positions = list(range(len(rows)))
    axes.barh(positions, [slowest for _, slowest, _ in rows], color=OKABE_ITO["sky_blue"], label="slowest run")
    axes.scatter([median for *_, median in rows], positions, color=OKABE_ITO["black"], marker="D", s=22,
                 zorder=3, label="median run")
    axes.set_yticks(positions, [label for label, *_ in rows])
    axes.invert_yaxis()
    axes.set_xlabel("seconds to run the cell")
    axes.set_title("Slowest cells across the class")
    axes.legend(frameon=False, loc="lower right")
    figure.savefig(path)
    return path
