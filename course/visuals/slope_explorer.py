"""A slider (and two buttons) that move a point along f and ask autograd for the slope there.

The plot is a PNG with its text alternative (``ImageView``) rather than a live matplotlib canvas:
it needs no interactive backend, and it is saved in the widget state, so exported HTML still shows it.

Headless runs (nbconvert, nbval, nbgrader autograde) have no browser to render a widget, so the
display bundle also carries the initial plot as `image/png` and the slope as `text/plain`.
Jupyter shows the widget when it can and falls back to those otherwise; nbval skips the
widget-view entry (its model id is random) and the PNG, and compares the text, which is fixed.
"""

import ipywidgets as widgets

from course.visuals.announce import code_line
from course.visuals.drawing import grading, png
from course.visuals.gradient_plot import describe_gradient, slope_at
from course.visuals.image_view import ImageView
from course.visuals.picture import bundle, draw, text_alternative

DPI = 80


class SlopeExplorer:
    """The slider, the picture and the slope line; `widget` is what the notebook shows."""

    def __init__(self, f, start: float, end: float, at: float | None = None):
        self.f, self.start, self.end = f, float(start), float(end)
        at = (self.start + self.end) / 2 if at is None else float(at)
        self.slider = widgets.FloatSlider(
            value=at, min=self.start, max=self.end, step=(self.end - self.start) / 200,
            description="x", readout_format=".3f", continuous_update=False,  # redraw on release
            layout=widgets.Layout(width="380px"),
        )
        # the slider's handle has no accessible name (ipywidgets#2650): buttons named by their text move x too
        self.smaller = widgets.Button(description="◀ smaller x", layout=widgets.Layout(width="110px"))
        self.larger = widgets.Button(description="larger x ▶", layout=widgets.Layout(width="110px"))
        self.slope = widgets.HTML()
        self.image = ImageView(layout=widgets.Layout(width="560px"))
        self.widget = widgets.VBox([widgets.HBox([self.slider, self.smaller, self.larger]), self.slope, self.image])
        self.slider.observe(self._moved, names="value")
        self.smaller.on_click(lambda _: self.nudge(-1))
        self.larger.on_click(lambda _: self.nudge(+1))
        described = describe_gradient(f, self.start, self.end, at)
        drawn = None if grading() else png(draw(described), DPI)  # a graded notebook keeps no widget state
        self.initial = bundle(described, DPI, drawn)
        self.slope.value = code_line(self.text(), now=False)
        if drawn:
            self.image.show(drawn, text_alternative(described))
        self.initial_text = self.text()

    def text(self) -> str:
        x = self.slider.value
        y, slope = slope_at(self.f, x)
        return f"At x = {x:.3f}: f(x) = {y:.4g}, slope f'(x) from autograd = {slope:.4g}"

    def _show(self, x: float):
        described = describe_gradient(self.f, self.start, self.end, at=x)
        self.image.show(png(draw(described), DPI), text_alternative(described))
        self.slope.value = code_line(self.text())

    def nudge(self, direction: int):
        """Move x a twentieth of the range left (-1) or right (+1), within the range."""
        step = (self.end - self.start) / 20
        self.slider.value = min(max(self.slider.value + direction * step, self.start), self.end)

    def _moved(self, change):
        self._show(change["new"])

    def _repr_mimebundle_(self, **kwargs):
        render = self.widget._repr_mimebundle_  # None once the widget is closed
        shown = dict(render(**kwargs) or {}) if render else {}
        picture, metadata = self.initial
        shown.update(picture)
        shown["text/plain"] = self.initial_text + "\n(move the slider to see the slope elsewhere)"
        return shown, metadata


def slope_explorer(f, start, end, at=None) -> SlopeExplorer:
    """Explore f' on [start, end] with a slider; make it the last line of a cell to show it."""
    return SlopeExplorer(f, start, end, at)
