"""What a person's browser is shown of a graded notebook: hidden tests hidden, students' outputs inert.

nbgrader's feedback renders the autograded notebook as it ran: test cells still hold their hidden
region, and a failing cell's traceback quotes the hidden line that raised. ``HideHiddenTests``
drops the region (reusing nbgrader's own ClearHiddenTests) and cuts tracebacks of graded cells
down to the error's name and message, which our checks write for the student.

Everything in a graded notebook's outputs and markdown was written by a student's code, and the
feedback page and the instructor's formgrader (which can reach the gradebook and ``source/``)
render it. ``InertOutputs`` is the first of two steps: nbconvert's ``SanitizeHTML`` on the
outputs, before rendering, so a script a student printed shows as text and the widget state is
dropped. The second, after rendering, is the exporter's (``workflow/pages/inert_exporter.py``): markdown
becomes HTML only then, so only then can every link and class be judged.
"""
import textwrap

from bleach import ALLOWED_ATTRIBUTES, ALLOWED_TAGS
from nbconvert.preprocessors.sanitize import SanitizeHTML
from nbgrader import utils
from nbgrader.preprocessors import ClearHiddenTests
from traitlets import default

WIDTH = 100
# plain formatting only: no script, style, iframe, object, form, svg, math or media tag
LAYOUT_TAGS = ["div", "span", "p", "pre", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead",
               "tbody", "tr", "th", "td", "sub", "sup", "details", "summary", "dl", "dt", "dd", "img"]


class HideHiddenTests(ClearHiddenTests):
    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type == "code" and utils.is_grade(cell):
            self._remove_hidden_test_region(cell)
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    message = f"{output.get('ename', 'Error')}: {output.get('evalue', '')}"
                    # feedback HTML shows tracebacks unwrapped; keep each line readable
                    output["traceback"] = ["\n".join(textwrap.fill(line, WIDTH) for line in message.splitlines())]
        return cell, resources


class InertOutputs(SanitizeHTML):
    """Outputs and raw cells cleaned before rendering; the notebook's widget state dropped.

    Markdown cells are left to the exporter's allowlist, after rendering: Bleach would escape the
    ``&`` and ``<`` of their formulas (a matrix's columns, ``$a < b$``) before they are typeset."""

    @default("enabled")
    def _always(self):
        """On wherever it is listed: nbgrader registers its steps as they are, and nbconvert's are off by default."""
        return True

    @default("tags")
    def _layout_tags(self):
        return sorted(set(ALLOWED_TAGS) | set(LAYOUT_TAGS))

    @default("attributes")
    def _plain_attributes(self):
        return {**ALLOWED_ATTRIBUTES, "*": ["class", "title"], "img": ["alt", "width", "height"]}

    def preprocess(self, nb, resources):
        nb.metadata.pop("widgets", None)  # the page would load a widget manager to render it
        return super().preprocess(nb, resources)

    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type == "markdown":
            return cell, resources
        return super().preprocess_cell(cell, resources, cell_index)


# ---- a page for a submission that could not be graded (written by `autograd-course feedback`) ----

UNGRADED_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{lesson}: your file could not be graded</title>
<style>body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; line-height: 1.5; }}
.why {{ background: #fdf0e6; border-left: 4px solid #D55E00; padding: .6rem 1rem; }}</style></head>
<body><h1>{lesson}: your file could not be graded</h1>
<p>The notebook you handed in for <b>{lesson}</b> could not be graded, so it has no score yet.</p>
<p class="why">{reason}</p>
<p>{advice}</p>
</body></html>
"""
UPLOAD_AGAIN = ("Open <code>{lesson}.ipynb</code> in JupyterLab, check that it opens and shows your work, save it "
                "(<i>File &gt; Save Notebook</i>) and upload that file again, or ask your instructor.")
# the grader stopped on a readable notebook: uploading it again cannot help, the instructor acts
GRADER_STOPPED = ("Your file is not at fault: your instructor has the details and will grade it again. "
                  "You need not upload it again.")


def write_ungraded_page(path: str, lesson: str, reason: str, grader_stopped: bool = False) -> str:
    """The feedback page of a submission that has none: what was wrong (the reason's first line only:
    a traceback below it is the instructor's), and what the student can do about it."""
    import html
    import os
    os.makedirs(os.path.dirname(path), exist_ok=True)
    lesson = html.escape(lesson)
    advice = GRADER_STOPPED if grader_stopped else UPLOAD_AGAIN.format(lesson=lesson)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(UNGRADED_PAGE.format(lesson=lesson, reason=html.escape(reason.split("\n", 1)[0]), advice=advice))
    return path
