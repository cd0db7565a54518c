"""A Jupyter server extension: formgrader renders submissions with the course's inert exporter.

nbgrader's formgrader builds a plain ``HTMLExporter`` for its submission pages and keeps it in the
server's settings (``nbgrader_exporter``); no option names another class. Once every extension has
loaded, this one puts an ``InertHTMLExporter`` built from the same configuration in its place, so
the instructor's view of a submission is made as the student's feedback is: inert after rendering,
formulas as MathML, within the render time limit. Its policy lets in formgrader's own scripts,
served by the server, and nothing from elsewhere.
"""
from traitlets.config import Config

from .inert_exporter import InertHTMLExporter
from .inert_html import SERVED_PAGE

# formgrade.js waits for MathJax's "End" of typesetting before it focuses the first grade box;
# formulas are MathML already, so typesetting has ended at once
MATHJAX_DONE = ('<script>window.MathJax = {Hub: {Startup: {signal: {Interest: function (listener) '
                '{ setTimeout(function () { listener("End"); }, 0); }}}}};</script>')


def _jupyter_server_extension_points():
    return [{"module": "autograder.workflow.pages.formgrader_pages"}]


def _load_jupyter_server_extension(serverapp):
    """Nothing yet: formgrader (loaded after this, by name) has not made its exporter."""


async def _start_jupyter_server_extension(serverapp):
    settings = serverapp.web_app.settings
    formgrader = settings.get("nbgrader_formgrader")
    if formgrader is None:
        serverapp.log.warning("formgrader is not loaded: its submission pages keep nbgrader's exporter")
        return
    config = Config(formgrader.config)
    config.merge(formgrader.load_config())  # the course's nbgrader_config.py: its render_timeout
    exporter = settings["nbgrader_exporter"] = inert_exporter(config)
    serverapp.log.info("formgrader renders submissions with %s (at most %g s a page)",
                       InertHTMLExporter.__name__, exporter.render_timeout)


def inert_exporter(config: Config) -> InertHTMLExporter:
    """The exporter formgrader's own would be, from ``config``, made inert and served."""
    config = Config(config)
    config.HTMLExporter.template_name = "formgrade"  # as nbgrader's FormgradeExtension sets it
    from nbgrader.server_extensions.formgrader import handlers
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    config.InertHTMLExporter.content_security_policy = SERVED_PAGE
    config.InertHTMLExporter.mathjax_stand_in = MATHJAX_DONE
    return InertHTMLExporter(config=config)
