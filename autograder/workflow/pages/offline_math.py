"""TeX in markdown typeset without a script or a network: converted to MathML as the page is written.

nbconvert leaves ``$...$`` and ``$$...$$`` as text for MathJax, a script fetched from a CDN: offline
(an exam room, a hub without internet) the student reads raw TeX, and the page loads a remote
script. Browsers typeset MathML themselves, so each formula mistune finds becomes MathML
(latex2mathml, pure Python) and the page needs no script at all. A formula latex2mathml cannot read
stays as its TeX, as text.
"""
import html

from latex2mathml.converter import convert
from nbconvert.filters.markdown_mistune import IPythonRenderer


def tex_to_mathml(tex: str, display: bool = False) -> str:
    """MathML for ``tex``; the TeX itself, escaped, when it does not convert."""
    try:
        return convert(tex, display="block" if display else "inline")
    except Exception:  # noqa: BLE001 (any TeX a student wrote: a formula that does not read stays text)
        delimiter = "$$" if display else "$"
        return html.escape(f"{delimiter}{tex}{delimiter}")


class MathMLRenderer(IPythonRenderer):
    """nbconvert's markdown renderer, with each formula written as MathML instead of TeX for MathJax."""

    def _embed_image_or_attachment(self, src: str) -> str:
        """An image of an attachment the cell does not hold has no source (nbconvert refuses the page)."""
        name = src[len("attachment:"):] if src.startswith("attachment:") else None
        return "" if name is not None and name not in self.attachments else super()._embed_image_or_attachment(src)

    def block_math(self, body: str) -> str:
        return tex_to_mathml(body, display=True)

    def latex_environment(self, name: str, body: str) -> str:
        return tex_to_mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", display=True)

    def inline_math(self, body: str) -> str:
        return tex_to_mathml(body)
