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
import re
import textwrap

from bleach import ALLOWED_ATTRIBUTES, ALLOWED_TAGS
from nbconvert.preprocessors import Preprocessor
from nbconvert.preprocessors.sanitize import SanitizeHTML
from nbgrader import utils
from nbgrader.preprocessors import ClearHiddenTests
from traitlets import default

from .page_fields import course_figure_as_html

WIDTH = 100
# plain formatting only: no script, style, iframe, object, form, svg, math or media tag
LAYOUT_TAGS = ["div", "span", "p", "pre", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "table", "thead",
               "tbody", "tr", "th", "td", "sub", "sup", "details", "summary", "dl", "dt", "dd", "img"]


# a check's message marks names as Markdown code (`x`); the page shows them as code, not as backticks
CODE_SPAN = re.compile(r"`([^`<>\n]+)`")


class HideHiddenTests(ClearHiddenTests):
    def preprocess_cell(self, cell, resources, cell_index):
        if cell.cell_type == "code" and utils.is_grade(cell):
            self._remove_hidden_test_region(cell)
            for output in cell.get("outputs", []):
                if output.get("output_type") == "error":
                    message = CODE_SPAN.sub(r"\1", f"{output.get('ename', 'Error')}: {output.get('evalue', '')}")
                    # feedback HTML shows tracebacks unwrapped; keep each line readable
                    output["traceback"] = ["\n".join(textwrap.fill(line, WIDTH) for line in message.splitlines())]
                elif isinstance(output.get("data", {}).get("text/html"), str):
                    output["data"]["text/html"] = CODE_SPAN.sub(r"<code>\1</code>", output["data"]["text/html"])
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
        for output in cell.get("outputs", []):  # a course figure's HTML: its PNG and alt are shown instead
            if course_figure_as_html(output.get("data"), output.get("metadata")):
                del output["data"]["text/html"]
        return super().preprocess_cell(cell, resources, cell_index)


class LateWorkNote(Preprocessor):
    """A first cell on the feedback page saying the student's due date (their extension's, when they
    have one) and how late the notebook was, or "late, time unknown" where the LMS said only late, with
    the penalty: the same words as the exports (``grades/late_penalties.py``)."""

    @default("enabled")
    def _always(self):
        return True

    def preprocess(self, nb, resources):
        from nbformat.v4 import new_markdown_cell
        text = late_work_text(self.config.CourseDirectory.root or ".", resources["nbgrader"]["assignment"],
                              resources["nbgrader"]["student"], resources["nbgrader"]["db_url"])
        if text:
            nb.cells.insert(0, new_markdown_cell(text, metadata={"late_work": True}))
        return nb, resources


def late_work_text(root: str, lesson: str, student: str, db_url: str) -> str:
    """The note of ``LateWorkNote``: "" when there is no due date and nothing late to say."""
    from nbgrader.api import Gradebook, MissingEntry

    from ..grades.late_penalties import extension_dates, how_late
    from ..records.upload_record import late_time_unknown
    from ...course_dir import load_config
    with Gradebook(db_url) as gradebook:
        try:
            submission = gradebook.find_submission(lesson, student)
        except MissingEntry:
            return ""
        due, penalty = submission.duedate, sum(n.late_submission_penalty or 0 for n in submission.notebooks)
        late = how_late(submission.total_seconds_late, (student, lesson) in late_time_unknown(root), due is not None)
        extended = submission.extension is not None
    if due is None and not late:
        return ""
    said_by = extension_dates(root, load_config(root)).get((student, lesson), (None, "your instructor"))[1]
    lines = [f"**Due** {due:%Y-%m-%d %H:%M} UTC" + (f" (your extension, from {said_by})" if extended else "")
             if due is not None else "**No due date**"]
    if late:
        cost = f"late penalty: {penalty:g} point(s)" if penalty else "no late penalty"
        lines.append(f"**Handed in {late}**: {cost}." if late.startswith("late,") else f"**Handed in {late}**: {cost}.")
    return "  \n".join(lines)


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
