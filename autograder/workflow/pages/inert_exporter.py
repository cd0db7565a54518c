"""The exporter of every page made from a graded notebook: feedback and formgrader's view of a submission.

It is nbconvert's ``HTMLExporter`` (with nbgrader's own templates, as nbgrader configures them)
with these changes, so the two pages are built one way:

- the notebook is rebuilt from its checked fields first (``page_fields``): what the templates write
  into the page as it is (an image's size, an execution count, a cell's tags) is plain data or gone;
- every piece of HTML a cell renders to (markdown, HTML and markdown outputs, raw cells) passes
  through ``inert_html.contained`` after rendering, with TeX written as MathML
  (``offline_math``); ``sanitize_html`` is on, so JavaScript outputs are not written at all, and
  the MathJax loader renders nothing;
- every output, images too, sits in a box it cannot paint outside of (``PAGE_LAYER``, a template
  over nbgrader's), and the cells lie between two secret marks;
- the page's shell meets WCAG 2.1 AA (``page_shell``: its language, a main landmark, its title as
  its first heading, readable colours);
- the page carries a Content-Security-Policy meta tag first in its head; on a served page, the
  template's own scripts (outside the marks) get its nonce (``inert_html.own_scripts``); the text
  formgrader passes about a submission (a student's name and id, paths) is escaped;
- rendering one notebook has a wall-clock limit (``render_timeout``): past it the page says why,
  and the other notebooks of the run are rendered as usual.

nbgrader's feedback takes it as ``c.GenerateFeedback.exporter_class``; formgrader builds a plain
``HTMLExporter``, which ``formgrader_pages`` replaces by this one when the instructor's server starts.
"""
import html
import signal
import threading
import time
from contextlib import contextmanager

from jinja2 import DictLoader, pass_context
from nbconvert.exporters import HTMLExporter
from nbconvert.filters.markdown_mistune import MarkdownWithMath
from traitlets import Float, Unicode, default

from .inert_html import (BOX, STATIC_PAGE, cell_marks, contained, content_security_policy, no_scripts,
                         own_scripts)
from .offline_math import MathMLRenderer
from .page_shell import accessible_shell
from .page_fields import PageFields

# formulas are MathML: the MathJax loader renders what stands in for it (nothing, on a static page)
MATHJAX_MACRO = "{%- macro mathjax(url='') -%}{% raw %}STAND_IN{% endraw %}{%- endmacro %}"
# over the page's own template (feedback's, formgrade's): the cells between secret marks, each output boxed
PAGE_LAYER = ("{%- extends 'index.html.j2' -%}"
              "{%- block body_loop -%}{{ resources.cell_marks[0] }}{{ super() }}{{ resources.cell_marks[1] }}"
              "{%- endblock body_loop -%}"
              "{%- block output -%}" + BOX + "{{ super() }}</div>{%- endblock output -%}")
# what formgrader passes about a submission, written into its page as it is
SUBMISSION_TEXT = ("assignment_id", "notebook_id", "submission_id", "student", "first_name", "last_name",
                   "notebook_path", "base_url")


class RenderTimeout(Exception):
    """Rendering one notebook went past ``render_timeout``."""


@contextmanager
def time_limit(seconds: float):
    """Raise RenderTimeout in this block after ``seconds`` (0: no limit).

    A signal interrupts any Python code (validating, templating, parsing the page), so the limit
    holds wherever the time goes. Signals reach the main thread only, where the commands and
    Jupyter's server render; elsewhere, and inside a block already limited, it adds nothing. An
    interrupt the block swallows (a library's broad ``except``, a ``__del__`` the collector ran when
    it came) comes again, and the block still ends in RenderTimeout. A timer set before (a test
    runner's) is put back with what is left of it.
    """
    nested = signal.getsignal(signal.SIGALRM) is _expire
    if seconds <= 0 or nested or threading.current_thread() is not threading.main_thread():
        yield
        return
    _expired.clear()
    started = time.monotonic()
    previous = signal.signal(signal.SIGALRM, _expire)
    left, interval = signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if left:
            signal.setitimer(signal.ITIMER_REAL, max(left - (time.monotonic() - started), 0.001), interval)
    if _expired:  # the interrupt was swallowed (a broad except, a __del__ run by the collector)
        raise RenderTimeout


_expired: list = []  # set when the limit is reached, in case its RenderTimeout is swallowed
AGAIN = 0.01  # seconds: past the limit, the interrupt comes again until the block ends


def _expire(signum, frame):
    _expired.append(True)
    signal.setitimer(signal.ITIMER_REAL, AGAIN)
    raise RenderTimeout


TOO_SLOW = """<!DOCTYPE html>
<html lang="en"><head>{policy}<meta charset="utf-8"><title>{name}: too large to show</title>
<style>body {{ font-family: system-ui, sans-serif; max-width: 46rem; margin: 2rem auto; line-height: 1.5; }}
.why {{ background: #fdf0e6; border-left: 4px solid #D55E00; padding: .6rem 1rem; }}</style></head>
<body><h1>{name}: too large to show</h1>
<p class="why">This notebook has {cells} cells, and making its page took longer than the
{seconds:g} s limit, so it is not shown here.</p>
<p>Its grade is not affected: the autograded notebook and its scores are kept. To see it, open the
notebook itself in JupyterLab; to show it here, remove what makes it so large (thousands of cells
or very long outputs) and hand it in again.</p>
</body></html>
"""


class InertHTMLExporter(HTMLExporter):
    """HTMLExporter whose pages run no student script, show no student overlay, and are written in bounded time."""

    render_timeout = Float(30.0, help="Seconds one notebook's page may take to render (0: no limit); "
                                      "past it the page says the notebook is too large to show.").tag(config=True)
    content_security_policy = Unicode(STATIC_PAGE, help="The page's Content-Security-Policy (a served page "
                                                        "needs its own scripts).").tag(config=True)
    mathjax_stand_in = Unicode("", help="What the page's MathJax loader renders instead: nothing, or what "
                                        "the page's own scripts expect of MathJax.").tag(config=True)

    @default("sanitize_html")
    def _sanitize(self):
        return True

    @default("extra_loaders")
    def _no_mathjax(self):
        return [DictLoader({"mathjax.html.j2": MATHJAX_MACRO.replace("STAND_IN", self.mathjax_stand_in),
                            "inert_page.html.j2": PAGE_LAYER})]

    @default("template_file")
    def _over_the_page(self):
        return "inert_page.html.j2"

    def default_filters(self):
        yield from super().default_filters()
        yield ("clean_html", contained)

    @pass_context
    def markdown2html(self, context, source):
        """nbconvert's markdown2html (attachments embedded as data: images), formulas as MathML, then made inert."""
        cell = context.get("cell", {})
        renderer = MathMLRenderer(escape=False, attachments=cell.get("attachments", {}), embed_images=self.embed_images,
                                  path=context.get("resources", {}).get("metadata", {}).get("path", ""),
                                  anchor_link_text=self.anchor_link_text,
                                  exclude_anchor_links=self.exclude_anchor_links, **self.lexer_options)
        return contained(MarkdownWithMath(renderer=renderer).render(source))

    def from_file(self, file_stream, resources=None, **kw):
        try:
            with time_limit(self.render_timeout):
                return super().from_file(file_stream, resources=resources, **kw)
        except RenderTimeout:
            return self._too_slow(None, resources)

    def from_notebook_node(self, nb, resources=None, **kw):
        resources = {key: html.escape(value) if key in SUBMISSION_TEXT and isinstance(value, str) else value
                     for key, value in (resources or {}).items()}
        marks = resources["cell_marks"] = cell_marks()
        try:
            with time_limit(self.render_timeout):
                nb, resources = PageFields(parent=self).preprocess(nb, resources)
                page, resources = super().from_notebook_node(nb, resources, **kw)
        except RenderTimeout:
            return self._too_slow(nb, resources)
        page, policy = own_scripts(accessible_shell(page), self.content_security_policy, marks)
        return page.replace("<head>", "<head>" + content_security_policy(policy), 1), resources

    def _too_slow(self, nb, resources):
        resources = resources if resources is not None else {}
        name = (resources.get("metadata") or {}).get("name") or "notebook"
        cells = len(nb.cells) if nb is not None else "many"
        self.log.warning("%s: its page took longer than %s s to render; it says so instead", name, self.render_timeout)
        page = TOO_SLOW.format(policy=content_security_policy(no_scripts(self.content_security_policy)),
                               name=html.escape(name), cells=cells, seconds=self.render_timeout)
        return page, resources
