"""HTML a student's notebook produced, made inert after rendering: the one sanitiser of every page.

A graded notebook's markdown and outputs were written by the student's code, and three pages show
them: the student's feedback, the instructor's formgrader (which can reach the gradebook and
``source/``) and, as escaped text, the class report. Cleaning a notebook's *source* is not enough:
markdown becomes HTML only when it is rendered (a ``[text](javascript:...)`` link, a ``<div
class="modal show">`` that Bootstrap draws over the whole page). So the HTML each cell renders to
passes through ``inert_html``: an allowlist with no script, no event handler, no form, no
``style``, no ``id`` or ``name`` (they would shadow the page's own elements), only the classes
syntax highlighting and tables use, links only to ``http``, ``https``, ``mailto`` and the page's
own anchors, images only from ``data:image/...`` URLs. ``contained`` then puts the result in a box
that cannot paint outside itself (CSS containment, its own stacking context), so nothing a student
wrote can cover the page around it, even where a page's stylesheet would position it.

``content_security_policy`` is the meta tag each page carries on top: it forbids every script the
page does not need (the feedback page and the report need none), every fetch and every form. A
served page (formgrader's) runs only its template's own scripts: ``own_scripts`` stamps a nonce on
each script outside the cells and lists the hashes of the template's own event handlers there, so a
script or handler among the cells, however it got there, does not run.
"""
import base64
import hashlib
import html
import re
import secrets

import nh3
from pygments.token import STANDARD_TYPES

TEXT_TAGS = {"a", "abbr", "b", "bdi", "bdo", "blockquote", "br", "caption", "cite", "code", "col", "colgroup",
             "dd", "del", "details", "dfn", "div", "dl", "dt", "em", "figcaption", "figure", "h1", "h2", "h3",
             "h4", "h5", "h6", "hr", "i", "img", "ins", "kbd", "li", "mark", "ol", "p", "pre", "q", "rp", "rt",
             "ruby", "s", "samp", "small", "span", "strike", "strong", "sub", "summary", "sup", "table", "tbody",
             "td", "tfoot", "th", "thead", "tr", "tt", "u", "ul", "var", "wbr"}
# what TeX becomes (offline_math.py): MathML, which the browser typesets itself
MATH_TAGS = {"math", "menclose", "merror", "mfrac", "mi", "mmultiscripts", "mn", "mo", "mover", "mpadded",
             "mphantom", "mprescripts", "mroot", "mrow", "ms", "mspace", "msqrt", "mstyle", "msub", "msubsup",
             "msup", "mtable", "mtd", "mtext", "mtr", "munder", "munderover", "semantics", "annotation"}
MATH_ATTRIBUTES = {"math": {"display"}, "mo": {"stretchy", "fence", "separator", "lspace", "rspace", "form",
                                                "largeop", "movablelimits", "accent", "minsize", "maxsize"},
                   "mi": {"mathvariant"}, "mn": {"mathvariant"}, "mtext": {"mathvariant"},
                   "mfrac": {"linethickness"}, "mspace": {"width", "height", "depth"},
                   "mstyle": {"displaystyle", "scriptlevel"}, "mtable": {"columnalign", "rowspacing", "columnspacing"},
                   "mtd": {"columnalign", "columnspan", "rowspan"}, "menclose": {"notation"},
                   "mover": {"accent"}, "munder": {"accentunder"}, "munderover": {"accent", "accentunder"},
                   "annotation": {"encoding"}}
ATTRIBUTES = {"*": {"title"}, "a": {"href"}, "img": {"src", "alt", "width", "height"}, "ol": {"start"},
              "td": {"colspan", "rowspan", "align"}, "th": {"colspan", "rowspan", "align", "scope"},
              **MATH_ATTRIBUTES}
# classes that only colour or lay out text: Pygments' token classes, a table's, a heading's anchor
CLASSES = {"span": {name for name in STANDARD_TYPES.values() if name}, "div": {"highlight"},
           "table": {"dataframe"}, "a": {"anchor-link"}}
CONTENT_DROPPED = {"script", "style", "template", "noscript", "iframe", "object", "embed", "textarea", "title",
                   "svg", "select", "option"}
IMAGE = re.compile(r"data:image/(png|jpeg|gif|webp|bmp|svg\+xml)[;,]", re.IGNORECASE)
LINK = re.compile(r"(https?:|mailto:|#)", re.IGNORECASE)
# a box its content cannot paint outside of, positioned or not, whatever its z-index
CONTAINED = "contain: layout paint; isolation: isolate; overflow: auto; position: relative; max-width: 100%"
BOX = f'<div data-student style="{CONTAINED}">'  # ``data-student`` marks it


def _url_filter(tag: str, attribute: str, value: str) -> str | None:
    """Links to the web, mail or the page's own anchors; images only from data: URLs."""
    if attribute == "href":
        return value if LINK.match(value.strip()) else None
    if attribute == "src":
        return value if IMAGE.match(value.strip()) else None
    return value


def inert_html(fragment: str) -> str:
    """``fragment`` with nothing that can run, navigate to a script, submit, or cover the page."""
    return nh3.clean(str(fragment), tags=TEXT_TAGS | MATH_TAGS, clean_content_tags=CONTENT_DROPPED,
                     attributes=ATTRIBUTES, allowed_classes=CLASSES, attribute_filter=_url_filter,
                     url_schemes={"http", "https", "mailto", "data"}, link_rel="noopener noreferrer nofollow")


def contained(fragment: str) -> str:
    """Sanitised HTML in a box that cannot overlay what is around it."""
    return f"{BOX}{inert_html(fragment)}</div>"


# A page written to a file (feedback, the report) runs no script and fetches nothing. Formgrader's
# page is served: its styles and fonts come from the server, and its scripts are its template's own,
# each named by the nonce or hash ``own_scripts`` gives it in place of ``{scripts}`` (not 'self': a
# file a student handed in is served from the same origin).
STATIC_PAGE = ("default-src 'none'; script-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; "
               "base-uri 'none'; form-action 'none'; frame-src 'none'; object-src 'none'")
SERVED_PAGE = ("default-src 'none'; script-src {scripts}; style-src 'self' 'unsafe-inline'; "
               "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; base-uri 'none'; "
               "form-action 'none'; frame-src 'none'; object-src 'none'")
SCRIPT_TAG = re.compile(r"<script\b", re.IGNORECASE)
HANDLER = re.compile(r"""\son[a-z]+\s*=\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)


def no_scripts(policy: str) -> str:
    """``policy`` for a page that runs no script of its own."""
    return policy.replace("{scripts}", "'none'")


def cell_marks() -> tuple[str, str]:
    """Two comments no student can write (a fresh secret each), to put around a page's cells."""
    secret = secrets.token_hex(16)
    return f"<!--cells {secret}-->", f"<!--end of cells {secret}-->"


def own_scripts(page: str, policy: str, marks: tuple[str, str]) -> tuple[str, str]:
    """``page`` without ``marks``, each script of its template (outside the marks) with a fresh nonce, and
    ``policy`` with ``{scripts}`` as that nonce and the hashes of the template's event handlers.

    A page without both marks has no part known to be the template's: nothing of it runs.
    """
    if "{scripts}" not in policy:
        return page, policy
    start, end = marks
    if page.count(start) != 1 or page.count(end) != 1:
        return page.replace(start, "").replace(end, ""), no_scripts(policy)
    before, rest = page.split(start)
    cells, after = rest.split(end)
    nonce = secrets.token_urlsafe(18)
    sources = [f"'nonce-{nonce}'"]
    handlers = sorted({html.unescape(a or b) for a, b in HANDLER.findall(before + after)})
    if handlers:
        digests = (base64.b64encode(hashlib.sha256(value.encode()).digest()).decode() for value in handlers)
        sources += ["'unsafe-hashes'", *(f"'sha256-{digest}'" for digest in digests)]
    stamp = f'<script nonce="{nonce}"'
    page = SCRIPT_TAG.sub(stamp, before) + cells + SCRIPT_TAG.sub(stamp, after)
    return page, policy.replace("{scripts}", " ".join(sources))


def content_security_policy(policy: str = STATIC_PAGE) -> str:
    """The meta tag that puts ``policy`` on the page: put it first in ``<head>``."""
    return f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">'
