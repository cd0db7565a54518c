"""A widget's picture with its text alternative: ipywidgets' ``Image`` gives its ``<img>`` no ``alt``.

The PNG goes to the browser inside an ``<img>`` with the figure in words (``picture.image_html``),
so a screen reader reads what the drawing shows each time the widget redraws it.
"""
import base64

import ipywidgets as widgets

from course.visuals.picture import image_html


class ImageView(widgets.HTML):
    """An HTML widget that shows one PNG at a time, with its ``alt``; ``png`` is what it shows."""

    png: bytes = b""

    def show(self, png: bytes, words: str) -> None:
        self.png = png
        self.value = image_html(base64.b64encode(png).decode("ascii"), words)
