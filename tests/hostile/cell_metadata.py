import base64

import nbformat

from . import SCRIPT_MARK, submission

NAME = "cell_metadata"
WHY = ("writes metadata that nbconvert's templates read into its file: tags that add Bootstrap's fixed "
       "navbar and hidden classes to a cell, transient metadata that hides its code from the grader, "
       "attachments of other types and names, a raw HTML cell, a notebook title, widget state and lexer "
       "that are markup, and the grader's own per-cell results and timings, forged for the class report")
KIND = "cheat"
EXPECT = {"loses": [], "reason": "Correct: `vjp`"}

MARKUP = f"</script><script>{SCRIPT_MARK}</script>"
FORGED_RESULT = {"exercise": "two_losses", "outcome": "correct", "kind": "", "message": MARKUP, "seed": 0,
                 "seconds": 10**9}
FORGED_TIMES = {"iopub.execute_input": "2020-01-01T00:00:00.000000Z", "shell.execute_reply": "2030-01-01T00:00:00.000000Z"}
MISSING = "![c](attachment:missing.png)"  # nbconvert refuses a whole page for an attachment it lacks
ANSWER = f"The scalar rule: backward() needs one number to start from. ![a](attachment:a.png) ![b](attachment:b.html) {MISSING}"


def build(release, solutions):
    notebook = submission(release, solutions)
    notebook.metadata.update(title=MARKUP, language_info={"name": "python", "pygments_lexer": MARKUP},
                             widgets={"application/vnd.jupyter.widget-state+json": {
                                 "state": {MARKUP: {}}, "version_major": 2, "version_minor": 0}})
    cells = {cell.get("id"): cell for cell in notebook.cells}
    cells["vjp"].metadata.update(tags=["answer navbar-fixed-top", "answer hidden"], transient={"remove_source": True},
                                 alt=MARKUP, magics_language=MARKUP, autograd_course=FORGED_RESULT,
                                 execution=FORGED_TIMES)
    answer = cells["why_scalar"]
    answer.source = ANSWER
    answer.attachments = {"a.png": {f'image/png" onerror="{SCRIPT_MARK}': "AAAA"},
                          "b.html": {"text/html": base64.b64encode(f"<script>{SCRIPT_MARK}</script>".encode()).decode()}}
    raw = nbformat.v4.new_raw_cell(f"<script>{SCRIPT_MARK}</script><b>raw</b>", metadata={"raw_mimetype": "text/html"})
    notebook.cells.insert(notebook.cells.index(answer) + 1, raw)
    return notebook
