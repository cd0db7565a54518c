"""The pages made from a graded notebook: sanitised after rendering, formulas as MathML, bounded in time.

Units of autograder/workflow/pages/inert_html.py, offline_math.py and inert_exporter.py; the browser
tests (tests/browser/test_inert_pages.py) open the pages themselves.
"""
import base64
import hashlib
import io
import os
import re
import signal

import nbgrader

import nbformat
import pytest
from bs4 import BeautifulSoup
from traitlets.config import Config

from autograder.workflow.pages.inert_exporter import InertHTMLExporter, RenderTimeout, time_limit
from autograder.workflow.pages.inert_html import SERVED_PAGE, STATIC_PAGE, contained, content_security_policy, inert_html
from autograder.workflow.pages.offline_math import tex_to_mathml
from hostile import SCRIPT_MARK


@pytest.mark.parametrize("hostile", [
    '<a href="javascript:alert(1)">x</a>', '<a href=" JaVaScRiPt:alert(1)">x</a>',
    '<a href="data:text/html,<script>alert(1)</script>">x</a>', '<a href="vbscript:x">x</a>',
    '<a href="files/../../gradebook.db">x</a>', '<img src="http://tracker.example/x.png">',
    '<img src="data:text/html;base64,PHNjcmlwdD4=">'])
def test_no_link_or_image_leaves_the_page_for_a_script(hostile):
    cleaned = inert_html(hostile)
    assert "href" not in cleaned and "src" not in cleaned


def test_what_can_run_submit_or_refresh_is_gone():
    cleaned = inert_html('<script>alert(1)</script><img src="data:image/png;base64,AA" onerror="alert(1)">'
                         '<form action="x"><input name="a"><button>go</button></form>'
                         '<meta http-equiv="refresh" content="0;url=http://x"><iframe srcdoc="x"></iframe>'
                         '<svg><script>alert(1)</script></svg><style>body{display:none}</style>')
    for gone in ("<script", "alert", "onerror", "<form", "<input", "<button", "<meta", "<iframe", "<svg", "<style"):
        assert gone not in cleaned
    assert '<img src="data:image/png;base64,AA">' in cleaned  # a data: image still shows


def test_nothing_a_student_writes_can_place_itself_over_the_page():
    cleaned = inert_html('<div class="modal show in navbar-fixed-top" id="test_vjp" name="top" '
                         'style="position:fixed;z-index:99999" data-toggle="modal">Score 10 / 10</div>')
    assert "modal" not in cleaned and "fixed" not in cleaned and "id=" not in cleaned
    assert "name=" not in cleaned and "data-toggle" not in cleaned
    assert "Score 10 / 10" in cleaned  # shown, as text in the flow


def test_what_plain_content_needs_is_kept():
    cleaned = inert_html('<a href="https://pytorch.org" title="docs">docs</a> <a href="#top">top</a> '
                         '<table class="dataframe"><tr><td colspan="2">1</td></tr></table>'
                         '<div class="highlight"><pre><span class="k">def</span></pre></div>')
    for kept in ('href="https://pytorch.org"', 'href="#top"', 'class="dataframe"', 'colspan="2"',
                 '<span class="k">', '<div class="highlight">'):
        assert kept in cleaned


def test_student_html_sits_in_a_box_it_cannot_paint_outside():
    boxed = contained('<b class="modal">hi</b>')
    assert boxed.startswith("<div data-student style=") and "contain: layout paint" in boxed
    assert "isolation: isolate" in boxed and "<b>hi</b>" in boxed


def test_each_page_says_which_scripts_it_may_run():
    assert "script-src 'none'" in STATIC_PAGE and "default-src 'none'" in STATIC_PAGE
    assert "script-src {scripts}" in SERVED_PAGE and "'self'" not in SERVED_PAGE.split(';')[1]
    assert "form-action 'none'" in SERVED_PAGE
    assert content_security_policy().startswith('<meta http-equiv="Content-Security-Policy"')


def test_tex_becomes_mathml_that_survives_the_sanitiser():
    mathml = tex_to_mathml(r"\frac{\partial L}{\partial a} = b^2", display=True)
    assert mathml.startswith("<math") and "<mfrac>" in mathml and 'display="block"' in mathml
    assert inert_html(mathml).count("<mfrac>") == 1
    assert tex_to_mathml(r"<b>x^") == r"$&lt;b&gt;x^$"  # TeX that does not read stays text


def _exporter(**settings):
    """As nbgrader's GenerateFeedback sets it up: its feedback template, Bootstrap's CSS beside it."""
    formgrader = os.path.join(os.path.dirname(nbgrader.__file__), "server_extensions", "formgrader")
    css = os.path.join(formgrader, "static", "node_modules", "bootstrap", "dist", "css")
    return InertHTMLExporter(config=Config({
        "HTMLExporter": {"template_name": "feedback", "extra_template_paths": [css],
                         "extra_template_basedirs": [os.path.join(formgrader, "templates")]},
        "InertHTMLExporter": settings}))


FEEDBACK = {"nbgrader": {"notebook": "02_backward", "score": 0, "max_score": 1, "late_penalty": 0}}


def test_a_page_has_its_policy_first_mathml_and_no_script():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(r"For $L = ab$: $$\frac{1}{x}$$ [x](javascript:y)")])
    page, _ = _exporter().from_notebook_node(nb, resources=FEEDBACK)
    head = page.split("<head>", 1)[1]
    assert head.startswith('<meta http-equiv="Content-Security-Policy"')
    assert "<script" not in page and "cdnjs" not in page and "javascript:y" not in page
    assert page.count("<math") == 2 and "<mfrac>" in page


def test_a_page_past_its_time_limit_says_why():
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("x") for _ in range(3000)])
    page, _ = _exporter(render_timeout=0.005).from_notebook_node(nb, resources={**FEEDBACK, "metadata": {"name": "02_backward"}})
    assert "02_backward: too large to show" in page and "3000 cells" in page and "0.005 s limit" in page
    assert "Content-Security-Policy" in page
    page, _ = _exporter(render_timeout=0).from_notebook_node(nb, resources=FEEDBACK)  # 0: no limit
    assert "too large" not in page
    page, _ = _exporter(render_timeout=0.005).from_file(io.StringIO(nbformat.writes(nb)),
                                                        resources={**FEEDBACK, "metadata": {"name": "02_backward"}})
    assert "02_backward: too large to show" in page  # from a file too (formgrader's view)


def test_the_time_limit_interrupts_and_gives_back_an_earlier_timer():
    fired = []
    previous = signal.signal(signal.SIGALRM, lambda *_: fired.append(True))
    try:
        signal.setitimer(signal.ITIMER_REAL, 2.0)
        with pytest.raises(RenderTimeout):
            with time_limit(0.1):
                while True:
                    pass
        left = signal.getitimer(signal.ITIMER_REAL)[0]
        assert 1.0 < left < 2.0  # the earlier timer runs on, less the time spent
        with time_limit(0.5):  # within its limit: nothing happens
            pass
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
    assert not fired


def test_a_time_limit_whose_interrupt_is_swallowed_still_ends_its_block():
    for work_on in (True, False):  # swallowed, then: more work, or the block's end
        with pytest.raises(RenderTimeout):
            with time_limit(0.05):
                try:
                    while True:
                        pass
                except RenderTimeout:  # as a library's broad except, or a __del__ run when it came, would
                    pass
                while work_on:
                    pass
    assert signal.getitimer(signal.ITIMER_REAL)[0] == 0


def test_cell_attachments_show_only_as_images():
    cell = nbformat.v4.new_markdown_cell("![plot](attachment:plot.png) ![page](attachment:page.html)")
    cell.attachments = {"plot.png": {"image/png": "iVBORw0KGgo="},
                        "page.html": {"text/html": "PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="}}
    page, _ = _exporter().from_notebook_node(nbformat.v4.new_notebook(cells=[cell]), resources=FEEDBACK)
    assert 'src="data:image/png;base64,iVBORw0KGgo="' in page
    assert "data:text/html" not in page and "PHNjcmlwdD" not in page


def _hostile_fields_notebook():
    """Every field of the corpus's page cases that a template reads, in one notebook (as graded, unchecked)."""
    from hostile import cell_metadata, forged_prompts, image_metadata
    cell = nbformat.v4.new_code_cell("def vjp(f, x, v):\n    return v")
    cell.metadata.update(tags=["answer navbar-fixed-top", "answer hidden"], transient={"remove_source": True},
                         alt=cell_metadata.MARKUP)
    cell.outputs = [nbformat.from_dict({"output_type": "display_data", "data": data, "metadata": metadata})
                    for data, metadata in image_metadata.SHOWN]
    for kind, content in forged_prompts.MESSAGES:
        if kind == "execute_input":
            cell.execution_count = content["execution_count"]
        else:
            cell.outputs.append(nbformat.from_dict({"output_type": kind, **content}))
    notebook = nbformat.v4.new_notebook(metadata={"title": cell_metadata.MARKUP, "language_info": {
        "name": "python", "pygments_lexer": cell_metadata.MARKUP}})
    notebook.cells = [cell]  # not checked by nbformat: a notebook as it may be stored
    return notebook


def test_the_notebook_a_page_is_made_from_holds_only_checked_fields():
    from autograder.workflow.pages.page_fields import PageFields
    checked, _ = PageFields().preprocess(_hostile_fields_notebook(), {})
    cell = checked.cells[0]
    assert cell.metadata == {} and cell.execution_count is None and checked.metadata == {"language_info": {"name": "python"}}
    assert [o.get("metadata", {}) for o in cell.outputs if o.output_type == "display_data" and "image/png" in o.data] \
        == [{}, {}, {"image/png": {"alt": '"><b>alt</b>'}}]  # no size within bounds, no filenames, no other key;
    # an alt is what the image shows in words, kept as text: the template escapes it
    kinds = [(o.output_type, sorted(o.get("data", {})), o.get("name")) for o in cell.outputs]
    assert ("stream", [], "stdout\" onclick=\"" + SCRIPT_MARK) not in kinds and ("stream", [], "stdin") not in kinds
    assert not any(set(o.get("data", {})) - {"text/plain", "text/html", "image/png", "image/jpeg", "image/svg+xml"}
                   for o in cell.outputs)
    sized = nbformat.v4.new_output("display_data", data={"image/png": "iVBORw0KGgo="},
                                   metadata={"image/png": {"width": 320.4, "height": "1 onerror=x"}, "width": 9})
    checked, _ = PageFields().preprocess(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("x", outputs=[sized])]), {})
    assert checked.cells[0].outputs[0].metadata == {"image/png": {"width": 320}}


def test_no_field_a_student_wrote_becomes_markup_on_the_page():
    page, _ = _exporter().from_notebook_node(_hostile_fields_notebook(), resources=FEEDBACK)
    soup = BeautifulSoup(page, "html.parser")
    assert not soup.find_all("script") and not soup.find(id="hostile-cover")
    assert not [(e.name, a) for e in soup.find_all(True) for a in e.attrs if a.lower().startswith("on")]
    classes = {c for e in soup.find_all(class_=True) for c in e["class"]}
    assert not {c for c in classes if c.startswith("celltag_")} and "hidden" not in classes
    for image in soup.select(".cell img"):
        assert image.find_parent(attrs={"data-student": True}) is not None
        assert set(image.attrs) <= {"src", "alt", "width", "height"} and image["src"].startswith("data:image/")
    assert '"><b>alt</b>' in [image.get("alt") for image in soup.select(".cell img")]  # an attribute, not markup
    assert "onerror" in soup.get_text()  # the forged traceback is shown, as text
    assert soup.find(string="vjp") is not None  # the code is shown, whatever transient says


def test_a_served_page_runs_its_templates_scripts_and_no_other():
    from autograder.workflow.pages.inert_html import cell_marks, own_scripts
    start, end = cell_marks()
    page = (f'<head><script src="/static/a.js"></script><script>var ok = 1;</script></head><body>'
            f'<span onclick="toggle_name(true);">x</span>{start}<script>evil()</script><img onerror="evil()">'
            f'<script nonce="guess">evil()</script>{end}<script>done()</script></body>')
    stamped, policy = own_scripts(page, SERVED_PAGE, (start, end))
    nonce = re.search(r"'nonce-([^']+)'", policy).group(1)
    assert stamped.count(f'nonce="{nonce}"') == 3 and "<!--" not in stamped
    assert '<script>evil()</script>' in stamped and "'unsafe-inline'" not in policy.split(";")[1]
    assert f"'sha256-{base64.b64encode(hashlib.sha256(b'toggle_name(true);').digest()).decode()}'" in policy
    assert base64.b64encode(hashlib.sha256(b"evil()").digest()).decode() not in policy
    _, unmarked = own_scripts(page.replace(start, ""), SERVED_PAGE, (start, end))
    assert "script-src 'none'" in unmarked  # no part known to be the template's: nothing runs


def test_formgraders_page_escapes_what_it_is_told_about_a_submission():
    from autograder.workflow.pages.formgrader_pages import inert_exporter
    resources = {"assignment_id": "a", "notebook_id": "hostile", "submission_id": 's"; alert(1); "', "index": 0,
                 "total": 1, "base_url": "", "student": "s", "last_name": f"<script>{SCRIPT_MARK}</script>",
                 "first_name": '<img src=x onerror="alert(1)">', "notebook_path": 'a"b'}
    page, _ = inert_exporter(Config()).from_notebook_node(nbformat.v4.new_notebook(), resources=resources)
    soup = BeautifulSoup(page, "html.parser")
    assert not soup.find_all("img") and f"<script>{SCRIPT_MARK}</script>" in soup.get_text()  # shown, as text
    scripts = soup.find_all("script")
    assert not [script for script in scripts if 's"; alert(1)' in (script.string or "")]  # the id ends no string
    assert scripts and all(script.get("nonce") for script in scripts)


def test_a_course_figure_drawn_in_a_students_kernel_is_shown_as_its_png_with_its_alt():
    """Graded by plain nbgrader, a figure keeps the HTML JupyterLab is sent: the page shows the PNG and its alt."""
    import matplotlib
    matplotlib.use("Agg")
    import torch
    from course.visuals.draw_graph import draw_graph
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    shown, metadata = draw_graph((x * x).sum(), {"x": x})._repr_mimebundle_()
    assert "text/html" in shown
    cell = nbformat.v4.new_code_cell("draw_graph(y)", outputs=[nbformat.v4.new_output(
        "display_data", data=shown, metadata=metadata)])
    from autograder.workflow.pages.feedback import InertOutputs
    notebook, _ = InertOutputs().preprocess(nbformat.v4.new_notebook(cells=[cell]), {})  # as feedback runs it first
    page, _ = _exporter().from_notebook_node(notebook, resources=FEEDBACK)
    images = BeautifulSoup(page, "html.parser").select(".cell img")
    assert len(images) == 1 and images[0]["src"].startswith("data:image/png;base64,")
    assert images[0]["alt"] == metadata["image/png"]["alt"] and images[0]["alt"].startswith("Backward graph of")
