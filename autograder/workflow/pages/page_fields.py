"""A graded notebook as a page may show it: every field a template reads, checked; nothing else.

nbconvert's templates write some of a notebook's fields into the page as they are, outside the
allowlist that student HTML passes (``inert_html``): an image output's ``width`` and ``height``
unquoted (``width=1 onerror=...`` is an event handler), its ``filenames`` as a URL, an execution
count between the prompt's brackets, a cell's tags as classes of the cell itself, ``transient``
metadata that hides a cell's source from whoever grades it. Every one of them was written by a
student's kernel (an output's metadata, a forged ``execute_input``) or file (cell and notebook
metadata). So ``PageFields`` rebuilds the notebook from checked fields before it is rendered:

- outputs of the four kinds, streams only ``stdout`` and ``stderr``, data only of the types a page
  shows (text, HTML, markdown, LaTeX, PNG, JPEG, SVG), each a string, images' base64 checked;
- of an output's metadata, only an image's ``width`` and ``height``, as whole numbers of pixels
  within ``MAX_SIDE``, and its ``alt`` (what it shows, in words: the course's figures send it) as
  text of at most ``MAX_ALT`` characters, which the template escapes;
- execution counts as whole numbers (or none), cell ids as nbformat spells them;
- a course figure drawn in a student's kernel (not a grading one) comes as its PNG, with its alt, and as
  HTML holding the same PNG for JupyterLab: the PNG is shown, the HTML left out;
- of a cell's metadata, only nbgrader's fields (flags as booleans, the grade id a plain name,
  points a number) and a raw cell's mimetype; markdown attachments only as images in base64;
- of the notebook's metadata, only the language's name and lexer, as plain names.

A field that does not check is left out, so the page shows less, never something else.
"""
import math
import re

from nbformat import v4
from nbformat.notebooknode import NotebookNode, from_dict
from nbconvert.preprocessors import Preprocessor

SHOWN = ("text/plain", "text/html", "text/markdown", "text/latex", "image/png", "image/jpeg", "image/svg+xml")
SIZED = ("image/png", "image/jpeg")  # the outputs whose metadata the templates read (width, height, alt)
ATTACHED = ("image/png", "image/jpeg", "image/gif", "image/webp", "image/svg+xml")
MAX_SIDE = 10_000  # pixels: an image's width or height a page takes
MAX_ALT = 10_000  # characters of an image's text alternative a page takes
BASE64 = re.compile(r"[A-Za-z0-9+/=\s]*")
NAME = re.compile(r"[A-Za-z0-9_.+#-]{1,100}")
CELL_ID = re.compile(r"[a-zA-Z0-9_-]{1,64}")
MIMETYPE = re.compile(r"[a-z]+/[A-Za-z0-9_.+-]{1,100}")
FLAGS = ("grade", "solution", "locked", "task")


class PageFields(Preprocessor):
    """The notebook rebuilt from its checked fields (module docstring); on wherever it is used."""

    enabled = True

    def preprocess(self, nb, resources):
        fresh = v4.new_notebook(metadata=_notebook_metadata(nb.get("metadata")))
        fresh.cells = [cell for cell in map(_cell, _items(nb.get("cells"))) if cell is not None]
        return fresh, resources


def _items(value) -> list:
    return value if isinstance(value, list) else []


def _mapping(value) -> dict:
    return value if isinstance(value, dict) else {}


def _text(value) -> str | None:
    """A string, or a list of strings as nbformat stores multiline text; None otherwise."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and all(isinstance(line, str) for line in value):
        return "".join(value)
    return None


def _count(value) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**31 else None


def _name(value) -> str | None:
    return value if isinstance(value, str) and NAME.fullmatch(value) else None


def _size(value) -> int | None:
    """Pixels as a whole number within ``MAX_SIDE`` (a number, never text)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        return None
    return round(value) if 0 < value <= MAX_SIDE else None


def _notebook_metadata(metadata) -> dict:
    """Only what picks the code's highlighting: the language's name and lexer."""
    language = _mapping(_mapping(metadata).get("language_info"))
    if not _name(language.get("name")):
        return {}
    lexer = _name(language.get("pygments_lexer"))
    return {"language_info": {"name": language["name"], **({"pygments_lexer": lexer} if lexer else {})}}


def _nbgrader(meta) -> dict | None:
    """nbgrader's fields of a cell, checked; None if its grade id is not a plain name."""
    meta = _mapping(meta)
    if not meta:
        return None
    kept = {flag: meta[flag] for flag in FLAGS if isinstance(meta.get(flag), bool)}
    if "grade_id" in meta:
        if not _name(meta["grade_id"]):
            return None
        kept["grade_id"] = meta["grade_id"]
    points = meta.get("points")
    if isinstance(points, (int, float)) and not isinstance(points, bool) and math.isfinite(points):
        kept["points"] = points
    if _count(meta.get("schema_version")) is not None:
        kept["schema_version"] = meta["schema_version"]
    return kept


def _cell_metadata(metadata, kind: str) -> dict:
    metadata, kept = _mapping(metadata), {}
    nbgrader = _nbgrader(metadata.get("nbgrader"))
    if nbgrader:
        kept["nbgrader"] = nbgrader
    raw = metadata.get("raw_mimetype")
    if kind == "raw" and isinstance(raw, str) and MIMETYPE.fullmatch(raw):
        kept["raw_mimetype"] = raw
    return kept


def _attachments(attachments) -> dict:
    kept = {}
    for name, bundle in _mapping(attachments).items():
        images = {mime: data for mime, data in _mapping(bundle).items()
                  if mime in ATTACHED and isinstance(data, str) and BASE64.fullmatch(data)}
        if isinstance(name, str) and 0 < len(name) <= 256 and images:
            kept[name] = images
    return kept


def _cell(cell) -> NotebookNode | None:
    cell = _mapping(cell)
    kind, source = cell.get("cell_type"), _text(cell.get("source"))
    if kind not in ("code", "markdown", "raw") or source is None:
        return None
    metadata = _cell_metadata(cell.get("metadata"), kind)
    if kind == "code":
        made = v4.new_code_cell(source, metadata=metadata, execution_count=_count(cell.get("execution_count")),
                                outputs=[out for out in map(_output, _items(cell.get("outputs"))) if out is not None])
    else:
        made = (v4.new_markdown_cell if kind == "markdown" else v4.new_raw_cell)(source, metadata=metadata)
        attachments = _attachments(cell.get("attachments"))
        if attachments:
            made.attachments = from_dict(attachments)
    cell_id = cell.get("id")
    if isinstance(cell_id, str) and CELL_ID.fullmatch(cell_id):
        made.id = cell_id
    return made


def _data(data) -> dict:
    kept = {}
    for mime in SHOWN:
        text = _text(_mapping(data).get(mime))
        if text is not None and (mime not in SIZED or BASE64.fullmatch(text)):
            kept[mime] = text
    return kept


def _image_metadata(metadata, data: dict) -> dict:
    """Each shown image's width, height and alt, from its own entry or (as nbconvert reads them) the top level."""
    metadata, kept = _mapping(metadata), {}
    for mime in SIZED:
        if mime in data:
            own = _mapping(metadata.get(mime))
            read = {key: own[key] if key in own else metadata.get(key) for key in ("width", "height", "alt")}
            checked = {key: _size(read[key]) for key in ("width", "height")}
            checked["alt"] = read["alt"] if isinstance(read["alt"], str) and len(read["alt"]) <= MAX_ALT else None
            if any(checked.values()):
                kept[mime] = {key: value for key, value in checked.items() if value}
    return kept


def course_figure_as_html(data, metadata) -> bool:
    """Whether an output's HTML is a course figure as JupyterLab is sent it (its own PNG in an <img> with
    its alt): a page shows the PNG and its alt instead, as a sanitiser before it keeps no img's src."""
    from course.visuals.picture import image_html
    alt = _mapping(_mapping(metadata).get("image/png")).get("alt")
    png, shown = _text(_mapping(data).get("image/png")), _text(_mapping(data).get("text/html"))
    return isinstance(alt, str) and png is not None and shown is not None and shown == image_html(png, alt)


def _output(out) -> NotebookNode | None:
    out = _mapping(out)
    kind = out.get("output_type")
    if kind == "stream":
        text = _text(out.get("text"))
        return v4.new_output("stream", name=out["name"], text=text) \
            if out.get("name") in ("stdout", "stderr") and text is not None else None
    if kind == "error":
        traceback = _items(out.get("traceback"))
        if not all(isinstance(line, str) for line in traceback):
            traceback = []
        return v4.new_output("error", ename=_text(out.get("ename")) or "", evalue=_text(out.get("evalue")) or "",
                             traceback=traceback)
    if kind in ("display_data", "execute_result"):
        data = _data(out.get("data"))
        if not data:
            return None
        metadata = _image_metadata(out.get("metadata"), data)
        if course_figure_as_html(data, metadata):
            del data["text/html"]  # the PNG is shown, with its alt
        made = v4.new_output(kind, data=data, metadata=metadata)
        if kind == "execute_result":
            made.execution_count = _count(out.get("execution_count"))
        return made
    return None
